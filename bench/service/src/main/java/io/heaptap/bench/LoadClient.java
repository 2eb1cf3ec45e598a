package io.heaptap.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives the service over loopback, in two ways:
 * <ul>
 * <li>{@link #fixedRate}: open loop. Request i is due at start + i / rate whatever happened before it, and
 *     its latency runs from that due time, not from when a connection was free to send it: a stall of the
 *     service shows in every request that was due during it (no coordinated omission). Connections are
 *     many more than a request needs at the rate, so they only queue when the service falls behind.</li>
 * <li>{@link #saturation}: closed loop, a few connections each sending its next request as soon as the
 *     last is answered: the service's throughput when it is the bottleneck.</li>
 * </ul>
 * Both read the service's CPU time from /proc over the window, and count a request answered correctly
 * when its status is 2xx and its body is JSON (starts with '{' or '[').
 */
final class LoadClient {
    private final InetSocketAddress address;
    private final long pid;
    /** The next request of the mix: windows go on through it, so no two windows send the same requests. */
    private final AtomicLong sequence = new AtomicLong();

    LoadClient(InetSocketAddress address, long pid) {
        this.address = address;
        this.pid = pid;
    }

    /** A window at a fixed rate: latencies from each request's due time, and the service's CPU per request. */
    record FixedRate(double rate, long requests, long answered, long errors, double p50Millis, double p99Millis,
            double p999Millis, double cpuMicrosPerRequest) {
    }

    /** A window at saturation: answered requests per second, and the service's CPU per request. */
    record Saturation(int connections, long answered, long errors, double perSecond, double cpuMicrosPerRequest) {
    }

    FixedRate fixedRate(double perSecond, long millis, int connections) throws IOException, InterruptedException {
        int total = (int) Math.max(1, Math.round(perSecond * millis / 1000.0));
        double period = 1e9 / perSecond;
        long[] latency = new long[total];
        long first = sequence.getAndAdd(total);
        AtomicLong next = new AtomicLong();
        List<HttpConnection> open = connect(connections);
        long cpuBefore = ProcessCpu.nanos(pid);
        long start = System.nanoTime() + 5_000_000L;
        // A service that falls far behind is not waited for without end: what is not sent by then fails.
        long giveUp = start + millis * 3_000_000L + 60_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (HttpConnection connection : open) {
            workers.add(start("load-fixed", () -> {
                Lane lane = new Lane(connection);
                for (long i; (i = next.getAndIncrement()) < total;) {
                    long due = start + (long) (i * period);
                    for (long wait; (wait = due - System.nanoTime()) > 0;) {
                        LockSupport.parkNanos(wait);
                    }
                    if (System.nanoTime() > giveUp) {
                        latency[(int) i] = -1;
                        continue;
                    }
                    latency[(int) i] = lane.send(first + i) ? System.nanoTime() - due : -1;
                }
                lane.close();
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        long cpu = ProcessCpu.nanos(pid) - cpuBefore;
        long[] good = Arrays.stream(latency).filter(l -> l >= 0).sorted().toArray();
        long errors = total - good.length;
        return new FixedRate(perSecond, total, good.length, errors, percentileMillis(good, 0.50), percentileMillis(good, 0.99),
                percentileMillis(good, 0.999), good.length == 0 ? Double.NaN : cpu / 1e3 / good.length);
    }

    Saturation saturation(long millis, int connections) throws IOException, InterruptedException {
        List<HttpConnection> open = connect(connections);
        AtomicLong answered = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long cpuBefore = ProcessCpu.nanos(pid);
        long start = System.nanoTime();
        long end = start + millis * 1_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (HttpConnection connection : open) {
            workers.add(start("load-saturation", () -> {
                Lane lane = new Lane(connection);
                while (System.nanoTime() < end) {
                    (lane.send(sequence.getAndIncrement()) ? answered : errors).incrementAndGet();
                }
                lane.close();
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = ProcessCpu.nanos(pid) - cpuBefore;
        return new Saturation(connections, answered.get(), errors.get(), answered.get() / seconds,
                answered.get() == 0 ? Double.NaN : cpu / 1e3 / answered.get());
    }

    /**
     * One connection's worth of the load: it sends request n of the mix and says whether it was answered
     * well, and opens a new connection after a failure or a "Connection: close".
     */
    private final class Lane {
        private HttpConnection connection;

        Lane(HttpConnection connection) {
            this.connection = connection;
        }

        boolean send(long n) {
            try {
                if (connection == null) {
                    connection = new HttpConnection(address);
                }
                int status = connection.exchange(RequestMix.request(n).bytes());
                int first = connection.firstBodyByte();
                if (connection.closeAfter()) {
                    close();
                }
                return status / 100 == 2 && (first == '{' || first == '[');
            } catch (IOException | RuntimeException e) {
                close();
                return false;
            }
        }

        void close() {
            if (connection != null) {
                connection.close();
                connection = null;
            }
        }
    }

    private static Thread start(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private List<HttpConnection> connect(int connections) throws IOException {
        List<HttpConnection> open = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            open.add(new HttpConnection(address));
        }
        return open;
    }

    /** The nearest-rank percentile of sorted nanoseconds, in milliseconds; NaN when nothing was answered. */
    static double percentileMillis(long[] sortedNanos, double p) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sortedNanos.length);
        return sortedNanos[Math.max(0, rank - 1)] / 1e6;
    }
}
