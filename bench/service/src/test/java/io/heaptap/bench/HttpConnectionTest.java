package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** The load client's HTTP reading against canned responses from a loopback socket. */
class HttpConnectionTest {
    /** Serves the given raw responses, one per request read (a request ends at its blank line: no bodies here). */
    private static CompletableFuture<Void> serve(ServerSocket server, List<String> responses) {
        return CompletableFuture.runAsync(() -> {
            try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                for (String response : responses) {
                    int state = 0;
                    while (state < 4) {
                        int b = in.read();
                        if (b < 0) {
                            return;
                        }
                        state = (b == '\r' && state % 2 == 0) || (b == '\n' && state % 2 == 1) ? state + 1 : 0;
                    }
                    out.write(response.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static final byte[] GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void readsChunkedAndSizedBodiesOnOneConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = serve(server, List.of(
                    "HTTP/1.1 200 \r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                            + "5\r\n{\"a\":\r\n3;ext=1\r\n12}\r\n0\r\n\r\n",
                    "HTTP/1.1 404 \r\ncontent-length: 2\r\n\r\n[]",
                    "HTTP/1.1 200 \r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
            try (HttpConnection c = new HttpConnection(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()))) {
                assertEquals(200, c.exchange(GET));
                assertEquals("{\"a\":12}", c.body());
                assertFalse(c.closeAfter());
                assertEquals(404, c.exchange(GET));
                assertEquals('[', c.firstBodyByte());
                assertEquals(200, c.exchange(GET));
                assertEquals(-1, c.firstBodyByte());
                assertTrue(c.closeAfter());
            }
            served.get();
        }
    }

    @Test
    void aResponseCutShortIsAnError() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = serve(server, List.of("HTTP/1.1 200 \r\nContent-Length: 10\r\n\r\n{\"a\""));
            try (HttpConnection c = new HttpConnection(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()))) {
                assertThrows(EOFException.class, () -> c.exchange(GET));
            }
            served.get();
        }
    }
}
