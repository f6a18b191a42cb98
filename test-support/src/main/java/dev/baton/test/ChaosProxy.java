package dev.baton.test;

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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of one ZooKeeper server, for provoking connection faults on
 * purpose.
 *
 * <p>A client built with {@link #connectString()} reaches the server only through this proxy.
 * {@link #cut()} drops every live connection and refuses new ones until {@link #heal()}, so the
 * client sees a disconnect and, if the cut lasts longer than its session timeout, an expired
 * session. {@link #delay(Duration)} holds every chunk of data in each direction for that long
 * (order is kept). {@link #pause()} keeps connections open but forwards nothing until
 * {@link #resume()}: the client looks like a process that stopped answering, without a socket
 * error on either side.
 *
 * <pre>{@code
 * try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1))) {
 *     ZooKeeper zk = new ZooKeeper(proxy.connectString(), 5000, watcher);
 *     proxy.cut();    // zk sees Disconnected
 *     proxy.heal();   // zk reconnects with the same session
 * }
 * }</pre>
 */
public final class ChaosProxy implements AutoCloseable {
    private static final AtomicInteger PROXIES = new AtomicInteger();
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private final AtomicInteger accepted = new AtomicInteger();
    private final String name;
    private volatile boolean cut;
    private volatile boolean paused;
    private volatile boolean repliesPaused;
    private volatile long delayNanos;
    private volatile boolean closed;

    private ChaosProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.name = "baton-chaos-proxy-" + PROXIES.incrementAndGet();
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy in front of {@code targetHostPort} ({@code host:port}, one server).
     *
     * @param targetHostPort the server to forward to, {@code host:port}
     * @return the running proxy, on a free loopback port
     * @throws IllegalArgumentException if the target is not a single {@code host:port}
     */
    public static ChaosProxy start(String targetHostPort) {
        Objects.requireNonNull(targetHostPort, "targetHostPort");
        int colon = targetHostPort.lastIndexOf(':');
        if (colon <= 0 || targetHostPort.contains(",")) {
            throw new IllegalArgumentException("target must be one host:port, was '" + targetHostPort + "'");
        }
        int port;
        try {
            port = Integer.parseInt(targetHostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("target port must be a number, was '" + targetHostPort + "'");
        }
        try {
            return new ChaosProxy(new InetSocketAddress(targetHostPort.substring(0, colon), port));
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a loopback port for the proxy: " + e.getMessage(), e);
        }
    }

    /** {@return where clients connect to go through this proxy, for example {@code 127.0.0.1:40123}} */
    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** {@return the proxy's loopback port} */
    public int port() {
        return listener.getLocalPort();
    }

    /** Drops every live connection and refuses new ones until {@link #heal()}. */
    public void cut() {
        cut = true;
        links.forEach(Link::close);
    }

    /** Accepts connections again after {@link #cut()}, and ends a {@link #pause()}. */
    public void heal() {
        cut = false;
        resume();
    }

    /**
     * Holds each chunk of data for {@code latency} before forwarding it; {@code Duration.ZERO} removes the
     * delay.
     *
     * @param latency how long to hold each chunk, zero for none
     */
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

    /**
     * Forwards requests to the server but holds its replies until {@link #resume()}. Followed by
     * {@link #cut()}, it makes a client lose the reply to a request the server did apply — the
     * case idempotent and protected operations exist for.
     */
    public void pauseReplies() {
        repliesPaused = true;
    }

    /** Forwards what was held during {@link #pause()} or {@link #pauseReplies()}, in order, and continues normally. */
    public void resume() {
        synchronized (gate) {
            paused = false;
            repliesPaused = false;
            gate.notifyAll();
        }
    }

    /** {@return connections accepted since the proxy started (refused ones during a cut included)} */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /** {@return connections currently forwarded} */
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
        resume();
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
            Socket server = new Socket();
            try {
                server.connect(target, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(server);
                continue;
            }
            Link link = new Link(client, server);
            links.add(link);
            link.start();
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
            new Pump(this, client, server, "up").start();
            new Pump(this, server, client, "down").start();
        }

        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /**
     * Copies one direction of a link: a reader stamps each chunk with the time it arrived, a
     * writer forwards it once the delay has passed and the proxy is not paused.
     */
    private final class Pump {
        private static final byte[] END = new byte[0];

        private final Link link;
        private final Socket from;
        private final Socket to;
        private final String direction;
        private final BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();

        Pump(Link link, Socket from, Socket to, String direction) {
            this.link = link;
            this.from = from;
            this.to = to;
            this.direction = direction;
        }

        void start() {
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
                    if (chunk.bytes == END) {
                        break;
                    }
                    awaitForwarding(chunk.arrivedNanos);
                    if (!links.contains(link)) {
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

        private void awaitForwarding(long arrivedNanos) throws InterruptedException {
            boolean reply = direction.equals("down");
            while (true) {
                synchronized (gate) {
                    while ((paused || (reply && repliesPaused)) && !closed && links.contains(link)) {
                        gate.wait(100);
                    }
                }
                long wait = arrivedNanos + delayNanos - System.nanoTime();
                if (wait <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
            }
        }
    }

    private record Chunk(long arrivedNanos, byte[] bytes) {
    }
}
