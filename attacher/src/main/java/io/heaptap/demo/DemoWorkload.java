package io.heaptap.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The JVM {@code heaptap demo} profiles: a toy service with a known allocation mix, so the demo's
 * table has something true to show. Per round, about: request bodies 8 KiB x 64 (512 KiB),
 * JSON strings ~1 KiB x 128, a report buffer of 1 MiB, and session objects kept in a bounded cache.
 */
public final class DemoWorkload {
    static volatile Object sink;
    private static final Map<Long, Session> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Session> eldest) {
            return size() > 50_000;
        }
    };

    record Session(long id, String user, byte[] token) {
    }

    private DemoWorkload() {
    }

    public static void run() {
        Thread worker = new Thread(DemoWorkload::serve, "demo-worker");
        worker.setDaemon(true);
        worker.start();
    }

    private static void serve() {
        long round = 0;
        while (true) {
            for (int i = 0; i < 64; i++) {
                sink = RequestParser.readBody(8 * 1024);
            }
            for (int i = 0; i < 128; i++) {
                sink = JsonEncoder.encode(round, i);
            }
            sink = ReportBuilder.buildReport(1 << 20);
            SessionCache.touch(round++);
            if (round % 64 == 0) {
                try {
                    Thread.sleep(1);  // a service, not a benchmark: leave the CPU some air
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    static final class RequestParser {
        static byte[] readBody(int size) {
            byte[] body = new byte[size];
            body[ThreadLocalRandom.current().nextInt(size)] = 1;
            return body;
        }
    }

    static final class JsonEncoder {
        static String encode(long round, int item) {
            StringBuilder sb = new StringBuilder(1024);
            sb.append("{\"round\":").append(round).append(",\"item\":").append(item).append(",\"payload\":\"");
            while (sb.length() < 1000) {
                sb.append("abcdefghij");
            }
            return sb.append("\"}").toString();
        }
    }

    static final class ReportBuilder {
        static double[] buildReport(int bytes) {
            double[] values = new double[bytes / 8];
            values[0] = 1;
            return values;
        }
    }

    static final class SessionCache {
        static void touch(long id) {
            List<Session> created = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                long key = id * 8 + i;
                Session s = new Session(key, "user-" + key, new byte[64]);
                created.add(s);
                synchronized (CACHE) {
                    CACHE.put(key, s);
                }
            }
            sink = created;
        }
    }
}
