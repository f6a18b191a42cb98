package dev.baton.server.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which ensemble owns a data folder: an exclusive lock on {@value #FILE} in it, held from
 * {@code build()} to {@code close()}.
 *
 * <p>Two ensembles on one folder write the same transaction log and lose each other's writes, so
 * a second one is refused while the first runs, in this JVM or in another process. The kernel
 * drops the lock when its process dies, however it dies, which is what makes a temporary folder
 * left by a killed JVM recognisable: once its owner has locked it, the lock file holds the owner's
 * pid and the word {@code temporary}; such a file whose lock is free belongs to nobody, and
 * {@link #deleteAbandoned} removes its folder.
 *
 * <p>File locks belong to a process, and closing any channel to the file drops them, so this JVM
 * never opens the lock file of a folder it holds itself: a set of held files guards that. Another
 * copy of this class in the JVM (a second class loader: an application server, a plugin, an IDE's
 * test runner) has a set of its own, so it can open a file this copy holds; the JDK then refuses
 * the lock ({@link OverlappingFileLockException}), and the folder is reported held as for another
 * process. The channel opened for that attempt is kept open, not closed, for the life of this copy
 * (one per file, reused by the next attempt): closing it would release the other copy's lock.
 */
final class FolderLock implements AutoCloseable {
    /** The lock file's name, in the folder it guards. */
    static final String FILE = ".baton-ensemble.lock";
    private static final String TEMPORARY = "temporary";
    /** The lock files this JVM holds; guarded by {@code FolderLock.class}. */
    private static final Set<Path> HELD_IN_THIS_JVM = new HashSet<>();
    /**
     * Channels to lock files another copy of this class holds, kept open because closing them would
     * release its lock; guarded by {@code FolderLock.class}.
     */
    private static final Map<Path, FileChannel> OPEN_ON_ANOTHER_COPYS_LOCK = new HashMap<>();

    private final Path file;
    private final FileChannel channel;

    private FolderLock(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Takes the lock of {@code folder}.
     *
     * @param temporary whether the folder is made for the ensemble (and may be deleted once nobody holds it)
     * @return the lock, or null if another ensemble holds it, in this JVM (through any class loader)
     *     or in another process
     * @throws IOException if the lock file cannot be made or locked
     */
    static FolderLock tryTake(Path folder, boolean temporary) throws IOException {
        Path file = folder.toRealPath().resolve(FILE);
        synchronized (FolderLock.class) {
            if (HELD_IN_THIS_JVM.contains(file)) {
                return null;
            }
            FileChannel channel = OPEN_ON_ANOTHER_COPYS_LOCK.remove(file);
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            try {
                if (!lockOrKeepOpen(file, channel)) {
                    return null;
                }
                // written under the lock: a free lock on a file that says who held it means its owner is gone
                channel.truncate(0);
                channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + (temporary ? " " + TEMPORARY : "") + "\n")
                    .getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            HELD_IN_THIS_JVM.add(file);
            return new FolderLock(file, channel);
        }
    }

    /**
     * Locks {@code file} through {@code channel}: true if locked; false if another process holds it
     * (the channel is closed) or another copy of this class in this JVM does (the channel is kept
     * open, see the class comment).
     */
    private static boolean lockOrKeepOpen(Path file, FileChannel channel) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            OPEN_ON_ANOTHER_COPYS_LOCK.put(file, channel);
            return false;
        }
        if (lock == null) {
            channel.close();
            return false;
        }
        return true;
    }

    /**
     * Deletes every temporary ensemble folder in {@code parent} named {@code prefix*} whose lock is
     * free: its JVM died without closing it (SIGKILL, a killed build). A folder being made (its lock
     * file still empty), one of another Baton version (no lock file) and any folder a user chose
     * are left alone; so is anything that cannot be read or deleted.
     *
     * @return how many folders were deleted
     */
    static int deleteAbandoned(Path parent, String prefix) {
        int deleted = 0;
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(parent.toRealPath(), prefix + "*")) {
            for (Path folder : folders) {
                if (deleteIfAbandoned(folder)) {
                    deleted++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: a temporary folder we cannot list or clean must not stop an ensemble being built
        }
        return deleted;
    }

    private static synchronized boolean deleteIfAbandoned(Path folder) {
        Path file = folder.resolve(FILE);
        if (HELD_IN_THIS_JVM.contains(file) || !Files.isRegularFile(file)) {
            return false;
        }
        // a channel kept open on another copy's lock is reused, and kept again unless the folder goes
        FileChannel kept = OPEN_ON_ANOTHER_COPYS_LOCK.remove(file);
        FileChannel channel = kept;
        try {
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            // read before locking: a file not written yet is one whose maker is about to lock it, and a lock
            // taken here, however briefly, makes that maker's tryLock fail and its build throw
            if (!saysTemporary(channel)) {
                leave(file, channel, kept);
                return false;  // not locked yet by the JVM making it, or a folder someone chose
            }
            if (!lockOrKeepOpen(file, channel)) {
                return false;  // its owner runs, in another process or in this JVM
            }
            if (!saysTemporary(channel)) {
                leave(file, channel, kept);
                return false;  // its owner closed it (emptying the file) since the first reading
            }
            Layout.deleteRecursively(folder);
            leave(file, channel, null);
            return true;
        } catch (IOException | UncheckedIOException e) {
            leave(file, channel, kept);
            return false;
        }
    }

    /** Closes {@code channel}, or keeps it open again if it is {@code kept}, one open on another copy's lock. */
    private static void leave(Path file, FileChannel channel, FileChannel kept) {
        if (channel == null) {
            return;
        }
        if (channel == kept) {
            OPEN_ON_ANOTHER_COPYS_LOCK.put(file, channel);
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing held through it is worth a failure here
        }
    }

    private static boolean saysTemporary(FileChannel channel) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(64);
        channel.read(content, 0);
        return new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII).strip().endsWith(TEMPORARY);
    }

    /**
     * Releases the lock, leaving the file empty (a temporary folder is deleted next, with it).
     * Does nothing the second time.
     */
    @Override
    public void close() {
        synchronized (FolderLock.class) {
            if (!HELD_IN_THIS_JVM.remove(file)) {
                return;
            }
            try {
                channel.truncate(0);  // an empty lock file is never taken for an abandoned one while the folder is deleted
                channel.close();  // releases the lock
            } catch (IOException ignored) {
                // the kernel releases it when this JVM exits
            }
        }
    }
}
