package dev.baton.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Sends one of ZooKeeper's four-letter commands ({@code srvr}, {@code mntr}, ...) to a server. */
public final class FourLetterWords {
    private FourLetterWords() {
    }

    /**
     * Sends {@code command} to the server on loopback {@code port} and returns its whole answer.
     *
     * @throws IOException if the server cannot be reached or does not answer within {@code timeout}
     */
    public static String send(int port, String command, Duration timeout) throws IOException {
        return send(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), command, timeout);
    }

    /** Sends {@code command} to the server at {@code address} and returns its whole answer. */
    public static String send(InetSocketAddress address, String command, Duration timeout) throws IOException {
        if (command.length() != 4) {
            throw new IllegalArgumentException("a four-letter word has four letters, was '" + command + "'");
        }
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(address, millis);
            socket.setSoTimeout(millis);
            socket.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    /** The {@code Mode:} line of a {@code srvr} answer ("leader", "follower", "standalone"), or null. */
    public static String mode(String srvrAnswer) {
        return field(srvrAnswer, "Mode");
    }

    /** The value of a {@code Name: value} line of an answer ({@code Zxid}, {@code Connections}, ...), or null. */
    public static String field(String answer, String name) {
        for (String line : answer.split("\n")) {
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2).trim();
            }
        }
        return null;
    }
}
