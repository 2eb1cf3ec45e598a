package io.heaptap.agent;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.session.DumpDirectory;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The agent's requests (a capture's start, its stop: the text a {@code loadAgent} of heaptap.jar
 * would carry) on a Unix-domain socket in the owner-only dump folder, so a target that runs heaptap
 * already is not given another Java agent, whose JVMTI environment the JDK never disposes. One line
 * in, one line out: the agent's reply as it would have published it.
 *
 * <p>Who may connect is the file system's answer, as for the Attach API's own socket: the folder is
 * the target user's, mode 700, and the socket 600, so the target's user and root. Bounded: one
 * heaptap thread serves one connection at a time; a request longer than {@link #MAX_REQUEST} or slower
 * than {@link #READ_TIMEOUT_MILLIS} is dropped unanswered. Started once per JVM, right after a capture's
 * first start; never throws (a socket that cannot start leaves the CLI loading the agent as before).
 */
public final class RequestSocket {
    /** Where the socket is, published for the CLI (read over the Attach API). */
    public static final String PATH_PROPERTY = "heaptap.requests.socket";
    static final String FILE_NAME = ".requests";
    static final int MAX_REQUEST = 16 * 1024;
    static final long READ_TIMEOUT_MILLIS = 5_000;

    private static boolean started;

    private RequestSocket() {
    }

    static synchronized void ensureStarted(DumpDirectory directory, UnaryOperator<String> agent) {
        if (started) {
            return;
        }
        started = true;  // once, whatever happens: a second try would fail the same way
        try {
            Path path = directory.ensureSafe().resolve(FILE_NAME);
            serveAt(path, agent);
            System.setProperty(PATH_PROPERTY, path.toString());
        } catch (IOException | RuntimeException e) {
            // The CLI finds no socket and loads the agent, as it did before heaptap ran here.
        }
    }

    /** Binds the socket at {@code path} (owner-only) and serves it on a heaptap thread until the channel is closed. */
    static ServerSocketChannel serveAt(Path path, UnaryOperator<String> agent) throws IOException {
        Files.deleteIfExists(path);  // a socket left by an earlier JVM with this pid
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        Selector selector = null;
        try {
            server.bind(UnixDomainSocketAddress.of(path));
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            // Made here, off the request's path: a JVM's first selector loads its classes (measured: a
            // repeat start's request took 244 ms instead of 66 ms in a busy JDK 25 target without it).
            selector = Selector.open();
            Selector serving = selector;
            try (NativeAgent.HeaptapWork ignored = NativeAgent.heaptapWork()) {
                Thread t = new Thread(NativeAgent.heaptapThread(() -> serve(server, serving, agent)), "heaptap-requests");
                t.setDaemon(true);
                t.start();
            }
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    private static void serve(ServerSocketChannel server, Selector selector, UnaryOperator<String> agent) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
                client.configureBlocking(false);
                SelectionKey key = client.register(selector, SelectionKey.OP_READ);
                try {
                    answer(client, selector, key, agent);
                } finally {
                    key.cancel();
                    selector.selectNow();  // deregisters the channel before it closes
                }
            } catch (IOException | RuntimeException e) {
                // one client's trouble: serve the next
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to serve
        }
    }

    private static void answer(SocketChannel client, Selector selector, SelectionKey key, UnaryOperator<String> agent)
            throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_TIMEOUT_MILLIS);
        String request = readLine(client, selector, deadline);
        if (request == null) {
            return;
        }
        String reply;
        try {
            reply = agent.apply(request);
        } catch (RuntimeException e) {
            return;  // unanswered: the CLI reports that the target did not answer
        }
        key.interestOps(SelectionKey.OP_WRITE);
        write(client, selector, reply + "\n", System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READ_TIMEOUT_MILLIS));
    }

    /** One line, or null when the client sends more than MAX_REQUEST, too slowly, or closes first. */
    private static String readLine(SocketChannel client, Selector selector, long deadline) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(MAX_REQUEST);
        while (true) {
            if (client.read(in) < 0) {
                return null;
            }
            for (int i = 0; i < in.position(); i++) {
                if (in.get(i) == '\n') {
                    return new String(in.array(), 0, i, StandardCharsets.UTF_8);
                }
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || !in.hasRemaining()) {
                return null;
            }
            selector.select(left);
            selector.selectedKeys().clear();
        }
    }

    private static void write(SocketChannel client, Selector selector, String text, long deadline) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (true) {
            client.write(out);
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!out.hasRemaining() || left <= 0) {
                return;
            }
            selector.select(left);
            selector.selectedKeys().clear();
        }
    }
}
