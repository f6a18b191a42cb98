package dev.baton.cli.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The processes of one session, read from Linux's {@code /proc}: what is left of a command once
 * its supervisor (the session's leader) is gone.
 *
 * <p>A process counts while any of its threads runs. A zombie — dead, waiting for its parent to
 * reap it — does not; but a process whose main thread ended while its other threads go on (as
 * after {@code pthread_exit} in {@code main}) shows as a zombie too, and runs: its threads are
 * looked at one by one.
 */
final class SessionProcesses {
    private static final Path PROC = Path.of("/proc");

    private SessionProcesses() {
    }

    /** The pids of the processes of session {@code session} that run. */
    static List<Long> running(long session) {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, SessionProcesses::isPid)) {
            for (Path entry : entries) {
                Stat stat = Stat.read(entry.resolve("stat"));
                if (stat != null && stat.session() == session && (stat.runs() || anyThreadRuns(entry))) {
                    found.add(Long.parseLong(entry.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the processes in /proc", e);
        }
        return found;
    }

    /** Whether the process {@code pid} exists and is a process of session {@code session}, running or not. */
    static boolean isIn(long pid, long session) {
        Stat stat = Stat.read(PROC.resolve(Long.toString(pid)).resolve("stat"));
        return stat != null && stat.session() == session;
    }

    private static boolean isPid(Path entry) {
        String name = entry.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    private static boolean anyThreadRuns(Path process) {
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path thread : threads) {
                Stat stat = Stat.read(thread.resolve("stat"));
                if (stat != null && stat.runs()) {
                    return true;
                }
            }
        } catch (IOException gone) {
            // the process went while we looked
        }
        return false;
    }

    /** The fields of a {@code stat} file that matter here: state and session. */
    private record Stat(char state, long session) {
        /** Read from {@code file}; null if the process (or thread) is gone. */
        static Stat read(Path file) {
            String line;
            try {
                line = Files.readString(file);
            } catch (IOException gone) {
                return null;
            }
            // the name, in parentheses, may hold anything, parentheses and spaces too: the fields start after the last ')'
            int end = line.lastIndexOf(')');
            if (end < 0 || end + 2 >= line.length()) {
                return null;
            }
            String[] fields = line.substring(end + 2).split(" ");
            // state, parent, group, session, ...
            return new Stat(fields[0].charAt(0), Long.parseLong(fields[3]));
        }

        boolean runs() {
            return state != 'Z' && state != 'X';
        }
    }
}
