package dev.baton.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of one address, whose traffic can be cut, silenced, delayed or
 * held on purpose: the one proxy behind the ensemble's server-to-server partitions and
 * test-support's {@code ChaosProxy} (which is this class behind a public name for client faults).
 *
 * <p>Each accepted connection gets a connection to the target and a pump in each direction: a
 * reader that stamps every chunk with its arrival time, and a writer that forwards it once the
 * delay has passed and nothing holds it. Chunks of one direction go out in the order they came in,
 * and nothing caps the rate.
 *
 * <p>Faults. {@link #cut()} closes every live connection and refuses new ones (each side sees the
 * connection end at once). {@link #silence()} makes traffic vanish without a sign, like a firewall
 * that drops packets: live connections stay open and carry nothing, and new ones are accepted but
 * never reach the target, so each side learns only from its own timeouts. {@link #pause()} holds
 * traffic both ways and {@link #pauseReplies()} holds only the target's replies; held chunks are
 * forwarded in order on {@link #resume()}, as TCP would deliver them once a network recovers.
 * {@link #heal()} ends a cut, a silence and a pause.
 *
 * <p>Not a public API of server-embedded: {@code internal} is shared with test-support only.
 */
public final class TcpProxy implements AutoCloseable {
    private static final AtomicInteger PROXIES = new AtomicInteger();
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final long TARGET_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    /** Connections accepted during a silence: they wait, unconnected, until the heal closes them. */
    private final Set<Socket> held = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private final AtomicInteger accepted = new AtomicInteger();
    private final String name;
    private volatile boolean cut;
    private volatile boolean silent;
    private volatile boolean paused;
    private volatile boolean repliesPaused;
    private volatile long delayNanos;
    private volatile boolean closed;
    /** How long a new connection waits for its target to listen (retrying); zero: one attempt. */
    private final Duration targetWait;

    private TcpProxy(InetSocketAddress target, int port, String name, Duration targetWait) throws IOException {
        this.target = target;
        this.targetWait = targetWait;
        this.name = name + "-" + PROXIES.incrementAndGet();
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Thread acceptor = new Thread(this::acceptLoop, this.name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy on loopback {@code port} (0 for any free one) in front of {@code target}.
     * {@code name} prefixes its threads' names.
     *
     * @throws IOException if the port cannot be bound
     */
    public static TcpProxy start(InetSocketAddress target, int port, String name) throws IOException {
        return start(target, port, name, Duration.ZERO);
    }

    /**
     * {@link #start(InetSocketAddress, int, String)}, where a new connection whose target does not
     * listen yet waits for it, retrying, for up to {@code targetWait} before it is closed. A
     * proxy cannot refuse a connection it has accepted; without the wait, a peer that dials a
     * port a moment before it is bound (a follower dialling the quorum port of a leader elected
     * a moment ago) sees its connection accepted and then closed mid-handshake, where a direct
     * connection would have been refused and retried, and gives that leader up.
     *
     * @param target where to forward
     * @param port the loopback port to listen on, 0 for any free one
     * @param name prefixes the proxy's threads' names
     * @param targetWait how long a new connection waits for its target to listen
     * @return the started proxy
     * @throws IOException if the port cannot be bound
     */
    public static TcpProxy start(InetSocketAddress target, int port, String name, Duration targetWait) throws IOException {
        Objects.requireNonNull(targetWait, "targetWait");
        return new TcpProxy(Objects.requireNonNull(target, "target"), port, Objects.requireNonNull(name, "name"), targetWait);
    }

    /** The loopback port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Where this proxy forwards to. */
    public InetSocketAddress target() {
        return target;
    }

    /** Closes every live connection and refuses new ones until {@link #heal()}. */
    public void cut() {
        cut = true;
        links.forEach(Link::close);
        closeHeld();
    }

    /**
     * Makes traffic vanish until {@link #heal()}: live connections stay open and forward nothing,
     * new connections are accepted but never reach the target. Neither side gets a socket error.
     */
    public void silence() {
        silent = true;
    }

    /**
     * Ends a cut, a silence and a pause: new connections reach the target again, connections held
     * during a silence are closed (their initiators connect again), and what live connections held
     * is forwarded in order.
     */
    public void heal() {
        cut = false;
        silent = false;
        closeHeld();
        resume();
    }

    /** Holds each chunk for {@code latency} before forwarding it; {@code Duration.ZERO} removes the delay. */
    public void delay(Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        delayNanos = latency.toNanos();
    }

    /** Keeps connections open but forwards nothing, in either direction, until {@link #resume()}. */
    public void pause() {
        paused = true;
    }

    /** Forwards requests to the target but holds its replies until {@link #resume()}. */
    public void pauseReplies() {
        repliesPaused = true;
    }

    /** Forwards what a pause held, in order, and continues normally (a silence lasts until {@link #heal()}). */
    public void resume() {
        synchronized (gate) {
            paused = false;
            repliesPaused = false;
            gate.notifyAll();
        }
    }

    /** Whether traffic passes: neither cut nor silenced. */
    public boolean isOpen() {
        return !cut && !silent;
    }

    /** Connections accepted since the proxy started (refused ones during a cut included). */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /** Connections currently forwarded. */
    public int liveConnections() {
        return links.size();
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing; nothing to do
        }
        links.forEach(Link::close);
        closeHeld();
        resume();
    }

    @Override
    public String toString() {
        return name + "[" + port() + " -> " + target.getPort() + (cut ? ", cut" : "") + (silent ? ", silent" : "") + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // listener closed
            }
            accepted.incrementAndGet();
            if (cut || closed) {
                closeQuietly(client);
                continue;
            }
            if (silent) {
                held.add(client);
                continue;
            }
            if (targetWait.isZero()) {
                connect(client);
            } else {
                // waiting for the target must not hold up the next accept
                Thread connector = new Thread(() -> connect(client), name + "-connect");
                connector.setDaemon(true);
                connector.start();
            }
        }
    }

    /** Connects {@code client} to the target (retrying for up to {@link #targetWait}) and starts forwarding. */
    private void connect(Socket client) {
        long deadline = System.nanoTime() + targetWait.toNanos();
        Socket server;
        while (true) {
            server = new Socket();
            try {
                server.connect(target, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                break;
            } catch (IOException e) {
                closeQuietly(server);
                if (cut || closed || System.nanoTime() - deadline >= 0) {
                    closeQuietly(client);
                    return;
                }
                LockSupport.parkNanos(TARGET_RETRY_NANOS);
            }
        }
        Link link = new Link(client, server);
        links.add(link);
        if (cut || closed) {
            link.close(); // a cut that came while this connection waited for its target
            return;
        }
        link.start();
    }

    private void closeHeld() {
        for (Socket socket : held) {
            held.remove(socket);
            closeQuietly(socket);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already broken
        }
    }

    /** One proxied connection: a pump in each direction. */
    private final class Link {
        private final Socket client;
        private final Socket server;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            new Pump(this, client, server, false).start();
            new Pump(this, server, client, true).start();
        }

        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /**
     * Copies one direction of a link: a reader stamps each chunk with the time it arrived, a
     * writer forwards it once the delay has passed and nothing holds it.
     */
    private final class Pump {
        private static final byte[] END = new byte[0];

        private final Link link;
        private final Socket from;
        private final Socket to;
        private final boolean reply;
        private final BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();

        Pump(Link link, Socket from, Socket to, boolean reply) {
            this.link = link;
            this.from = from;
            this.to = to;
            this.reply = reply;
        }

        void start() {
            String direction = reply ? "down" : "up";
            Thread reader = new Thread(this::read, name + "-" + direction + "-read");
            Thread writer = new Thread(this::write, name + "-" + direction + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void read() {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    chunks.add(new Chunk(System.nanoTime(), Arrays.copyOf(buffer, n)));
                }
            } catch (IOException e) {
                // the link broke or was cut
            } finally {
                chunks.add(new Chunk(System.nanoTime(), END));
            }
        }

        private void write() {
            try (OutputStream out = to.getOutputStream()) {
                while (true) {
                    Chunk chunk = chunks.take();
                    // a close is forwarded like data, in order: during a silence or a pause even a
                    // close must not reach the other side (a server that ends the connection of a
                    // frozen client is not heard by it), and a delayed link delays it too
                    awaitForwarding(chunk.arrivedNanos);
                    if (chunk.bytes == END || !links.contains(link)) {
                        break;
                    }
                    out.write(chunk.bytes);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the link broke or was cut
            } finally {
                link.close();
            }
        }

        /** Waits while the chunk is held (silence, pause) and until its delay has passed. */
        private void awaitForwarding(long arrivedNanos) throws InterruptedException {
            while (true) {
                synchronized (gate) {
                    while ((silent || paused || (reply && repliesPaused)) && !closed && links.contains(link)) {
                        gate.wait(100);
                    }
                }
                long wait = arrivedNanos + delayNanos - System.nanoTime();
                if (wait <= 0) {
                    return;
                }
                // parkNanos, not sleep: Java 17's sleep rounds a wait under a millisecond up to one,
                // which made a 0.5 ms delay hold each chunk 1 ms or more
                LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
                if (Thread.interrupted()) {
                    throw new InterruptedException("proxy writer interrupted");
                }
            }
        }
    }

    private record Chunk(long arrivedNanos, byte[] bytes) {
    }
}
