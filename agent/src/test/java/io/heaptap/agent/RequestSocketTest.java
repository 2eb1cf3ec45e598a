package io.heaptap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One line in, the agent's one line out, over a real Unix-domain socket; bad clients get nothing and block no one. */
class RequestSocketTest {
    @TempDir
    Path dir;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private ServerSocketChannel server;

    private Path serve() throws IOException {
        Path path = dir.resolve(RequestSocket.FILE_NAME);
        server = RequestSocket.serveAt(path, request -> {
            received.add(request);
            if (request.equals("boom")) {
                throw new IllegalArgumentException("not a request");
            }
            return "reply to " + request;
        });
        return path;
    }

    @AfterEach
    void close() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRequestLineGetsTheAgentsReplyLine() throws Exception {
        Path path = serve();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        assertEquals("reply to capture,reply=1", send(path, "capture,reply=1\n"));
        assertEquals("reply to stop", send(path, "stop\n"));
        assertEquals(List.of("capture,reply=1", "stop"), received);
    }

    @Test
    void anOversizedRequestOrAFailingOneIsDroppedUnansweredAndTheNextIsServed() throws Exception {
        Path path = serve();
        assertNull(send(path, "x".repeat(RequestSocket.MAX_REQUEST + 10) + "\n"));
        assertNull(send(path, "boom\n"));
        assertNull(send(path, "no newline, then closed"));
        assertEquals("reply to next", send(path, "next\n"));
        assertEquals(List.of("boom", "next"), received);
    }

    /** Sends text and reads one line back; null when the server closes without one. */
    private static String send(Path path, String text) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(path));
            ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            try {
                while (out.hasRemaining()) {
                    channel.write(out);
                }
            } catch (IOException e) {
                // the server stopped reading an oversized request: its answer (none) is what counts
            }
            channel.shutdownOutput();
            ByteBuffer in = ByteBuffer.allocate(1024);
            while (channel.read(in) >= 0) {
                for (int i = 0; i < in.position(); i++) {
                    if (in.get(i) == '\n') {
                        return new String(in.array(), 0, i, StandardCharsets.UTF_8);
                    }
                }
            }
            return null;
        } catch (IOException e) {
            return null;  // reset by a server that dropped the request
        }
    }
}
