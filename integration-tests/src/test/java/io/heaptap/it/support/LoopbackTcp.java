package io.heaptap.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's view of loopback TCP connections, from /proc/net/tcp and tcp6: what the server end of a
 * connection did can be seen there before the client reads a byte. A client that never reads cannot see
 * the server close: the FIN waits behind the data the server's kernel still holds for it.
 */
public final class LoopbackTcp {
    private static final String ESTABLISHED = "01";
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private LoopbackTcp() {
    }

    /**
     * Whether the socket with this local port and this remote port is still established: false once its
     * owner closed it (FIN_WAIT1 and on) or once it is gone.
     */
    public static boolean established(int localPort, int remotePort) {
        String local = String.format(":%04X", localPort);
        String remote = String.format(":%04X", remotePort);
        for (Path table : TABLES) {
            for (String line : lines(table)) {
                // sl local_address rem_address st ...
                String[] f = line.trim().split("\\s+");
                if (f.length > 3 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                    return ESTABLISHED.equals(f[3]);
                }
            }
        }
        return false;
    }

    /** The most a TCP socket's kernel send buffer grows to by itself (tcp_wmem's third figure). */
    public static long sendBufferMax() {
        String[] wmem = lines(Path.of("/proc/sys/net/ipv4/tcp_wmem")).get(0).trim().split("\\s+");
        return Long.parseLong(wmem[2]);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
