package io.heaptap.attach;

import io.heaptap.agent.RequestSocket;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * The CLI's side of heaptap's request socket in a target (RequestSocket): the agent's requests (a
 * capture's start, its stop) sent there instead of with another {@code loadAgent}. Each load of
 * heaptap.jar gives the target a Java agent with a JVMTI environment of its own that the JDK never
 * disposes, so a request repeated every minute would add one every minute for as long as the target
 * runs. A Unix-domain socket rather than heaptap's JMX connector: a JMX connection costs a fresh CLI
 * JVM 200-500 ms (the RMI classes and round trips), one line on a socket a few milliseconds.
 */
final class RequestSocketClient {
    /** A reply is one line of a few hundred bytes; anything longer is not heaptap's. */
    private static final int MAX_REPLY = 16 * 1024;

    private RequestSocketClient() {
    }

    /**
     * Sends a request (the text a {@code loadAgent} of heaptap.jar would carry) and returns the agent's
     * answer; empty when the target names no socket or it takes no connection (nothing was sent: the
     * caller loads the agent, as before heaptap ran there). A connection lost once the request went out
     * is an IOException: the request may have been carried out, so it is not sent again another way.
     */
    static Optional<String> request(Target target, Properties props, String request) throws IOException {
        String path = props.getProperty(RequestSocket.PATH_PROPERTY);
        if (path == null) {
            return Optional.empty();
        }
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(Path.of(path)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        try (channel) {
            ByteBuffer out = ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
            }
            ByteBuffer in = ByteBuffer.allocate(MAX_REPLY);
            while (in.hasRemaining() && channel.read(in) >= 0) {
                for (int i = 0; i < in.position(); i++) {
                    if (in.get(i) == '\n') {
                        return Optional.of(new String(in.array(), 0, i, StandardCharsets.UTF_8));
                    }
                }
            }
            throw new IOException("pid " + target.pid() + " closed heaptap's request socket without an answer");
        }
    }
}
