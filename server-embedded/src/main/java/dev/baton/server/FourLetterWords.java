package dev.baton.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocket;

/** Sends one of ZooKeeper's four-letter commands ({@code srvr}, {@code mntr}, ...) to a server. */
public final class FourLetterWords {
    private FourLetterWords() {
    }

    /**
     * Sends {@code command} to the server on loopback {@code port} and returns its whole answer.
     *
     * @param port the server's client port on the loopback address
     * @param command a four-letter word such as {@code srvr} or {@code ruok}
     * @param timeout how long to wait for the whole answer
     * @return the server's answer
     * @throws IOException if the server cannot be reached or does not answer within {@code timeout}
     */
    public static String send(int port, String command, Duration timeout) throws IOException {
        return send(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), command, timeout);
    }

    /**
     * Sends {@code command} to the server at {@code address} and returns its whole answer.
     *
     * @param address the server's client address
     * @param command a four-letter word such as {@code srvr} or {@code ruok}
     * @param timeout how long to wait for the whole answer
     * @return the server's answer
     * @throws IOException if the server cannot be reached or does not answer within {@code timeout}
     */
    public static String send(InetSocketAddress address, String command, Duration timeout) throws IOException {
        return send(address, command, timeout, SocketFactory.getDefault());
    }

    /**
     * Sends {@code command} over a socket from {@code sockets} (an {@code SSLSocketFactory} for a
     * server that serves TLS on its client port) and returns its whole answer.
     *
     * @param address the server's client address
     * @param command a four-letter word such as {@code srvr} or {@code ruok}
     * @param timeout how long to wait for the whole answer
     * @param sockets makes the (unconnected) socket
     * @return the server's answer
     * @throws IOException if the server cannot be reached or does not answer within {@code timeout}
     */
    public static String send(InetSocketAddress address, String command, Duration timeout, SocketFactory sockets)
        throws IOException {
        if (command.length() != 4) {
            throw new IllegalArgumentException("a four-letter word has four letters, was '" + command + "'");
        }
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = sockets.createSocket()) {
            socket.connect(address, millis);
            socket.setSoTimeout(millis);
            socket.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            if (!(socket instanceof SSLSocket)) {
                // a TLS socket cannot half-close; the server answers four letters without it
                socket.shutdownOutput();
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * {@return the {@code Mode:} line of a {@code srvr} answer ("leader", "follower", "standalone"), or null}
     *
     * @param srvrAnswer the answer to {@code srvr}
     */
    public static String mode(String srvrAnswer) {
        return field(srvrAnswer, "Mode");
    }

    /**
     * {@return the value of a {@code Name: value} line of an answer ({@code Zxid}, {@code Connections}, ...),
     * or null}
     *
     * @param answer a four-letter word's answer
     * @param name the line's name, without the colon
     */
    public static String field(String answer, String name) {
        for (String line : answer.split("\n")) {
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2).trim();
            }
        }
        return null;
    }
}
