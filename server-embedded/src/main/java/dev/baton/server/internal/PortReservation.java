package dev.baton.server.internal;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * A loopback TCP port held for one server of one ensemble until {@link #close()}.
 *
 * <p>Asking the kernel for a free port and binding it later is a race: another JVM can be handed
 * the same port in between. Baton closes that race among its own users by also taking an
 * exclusive byte-range lock on one shared file in the temporary directory, at the offset equal to
 * the port number. The lock lives as long as the reservation, so two test JVMs starting ensembles
 * side by side never pick the same port, and the kernel releases the lock if the JVM dies. Inside
 * one JVM a set of held ports does the same job (file locks are per process).
 */
public final class PortReservation implements AutoCloseable {
    private static final int ATTEMPTS = 200;
    private static final Set<Integer> HELD_IN_THIS_JVM = new HashSet<>();
    private static FileChannel lockFile;

    private final int port;
    private final FileLock lock;

    private PortReservation(int port, FileLock lock) {
        this.port = port;
        this.lock = lock;
    }

    /** Reserves a port the kernel says is free right now. */
    public static PortReservation anyFree() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int candidate;
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                candidate = probe.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException("cannot bind any loopback port: " + e.getMessage(), e);
            }
            PortReservation reservation = tryReserve(candidate);
            if (reservation != null) {
                return reservation;
            }
        }
        throw new IllegalStateException("no free loopback port found after " + ATTEMPTS + " attempts");
    }

    /**
     * Reserves exactly {@code port}.
     *
     * @throws IllegalArgumentException if the port is outside 1..65535, in use, or held by another
     *     ensemble; for a taken port (in use, or held) its cause is a {@link BindException}, which
     *     is how a program tells a taken port from a bad setting
     */
    public static PortReservation exactly(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535, was " + port);
        }
        IOException bindFailure = bindFailure(port);
        if (bindFailure != null) {
            throw new IllegalArgumentException("port " + port + " is already in use on 127.0.0.1", bindFailure);
        }
        PortReservation reservation = tryReserve(port);
        if (reservation == null) {
            // nothing listens on it yet, but the ensemble that holds it will bind it when it starts
            throw new IllegalArgumentException("port " + port + " is already reserved by another embedded ensemble",
                new BindException("port " + port + " is reserved by another embedded ensemble, in this or another JVM"));
        }
        return reservation;
    }

    /** Whether a server socket could bind {@code port} on the loopback address right now. */
    public static boolean isBindable(int port) {
        return bindFailure(port) == null;
    }

    /** Why a server socket cannot bind {@code port} on the loopback address right now, or null if it can. */
    private static IOException bindFailure(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static synchronized PortReservation tryReserve(int port) {
        if (HELD_IN_THIS_JVM.contains(port)) {
            return null;
        }
        FileLock lock;
        try {
            lock = lockFile().tryLock(port, 1, false);
        } catch (OverlappingFileLockException e) {
            return null;
        } catch (IOException e) {
            // No shared lock file (read-only temp dir): fall back to the in-JVM set alone.
            lock = null;
        }
        if (lock == null && lockFile != null) {
            return null;
        }
        HELD_IN_THIS_JVM.add(port);
        return new PortReservation(port, lock);
    }

    private static FileChannel lockFile() throws IOException {
        if (lockFile == null) {
            Path path = Path.of(System.getProperty("java.io.tmpdir"), "baton-ports.lock");
            lockFile = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        return lockFile;
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        synchronized (PortReservation.class) {
            if (!HELD_IN_THIS_JVM.remove(port)) {
                return;
            }
            if (lock != null) {
                try {
                    lock.release();
                } catch (IOException ignored) {
                    // the channel stays open for the JVM's life; a failed release frees itself at exit
                }
            }
        }
    }

    @Override
    public String toString() {
        return "port " + port;
    }
}
