package io.heaptap.it.workload;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A target whose allocation rate jumps a hundredfold or more and back, counting exactly what it
 * allocates: on "go" it allocates about 16 MB/s for 5 s (quietBefore), then two threads allocate as
 * fast as they can for 3 s (stormTiny, stormRecord), then 16 MB/s for 10 s (quietAfter), and prints
 * "done" with each site's object count and the two rates. The phases are timed here, in the
 * workload (a sample-rate target reads the sample count every 100 ms, so each phase spans many
 * readings on any machine); the test learns the truth from the counts, not from the timing.
 * Every object escapes to a volatile field so the JIT cannot remove an allocation.
 */
public final class RateJumps {
    public static final int QUIET_LENGTH = 1_000;      // byte[1000]: 1,016 bytes
    public static final int TINY_LENGTH = 48;          // byte[48]: 64 bytes
    public static final int RECORD_LENGTH = 16_368;    // 16 KiB
    static final long QUIET_NANOS = 5_000_000_000L;
    /**
     * Longer than before the storm: the readings that span the storm's end sample the quiet site's
     * first second or two at the storm's interval, a few heavy samples that dominated its sigma over
     * 5 s (3.3-7.8% seen, against SampleRateIT's 10% limit); over 10 s they weigh half as much.
     */
    static final long QUIET_AFTER_NANOS = 10_000_000_000L;
    static final long STORM_NANOS = 3_000_000_000L;
    static final int QUIET_PER_10_MS = 160;            // 160 x 1,016 bytes every 10 ms: about 16 MB/s

    static volatile Object sink;
    static volatile boolean storming;

    private RateJumps() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("go")) {
                try {
                    long quietStart = System.nanoTime();
                    long quietBefore = quietBefore();
                    long quietNanos = System.nanoTime() - quietStart;
                    AtomicLong tiny = new AtomicLong();
                    AtomicLong records = new AtomicLong();
                    long stormStart = System.nanoTime();
                    storm(tiny, records);
                    long stormNanos = System.nanoTime() - stormStart;
                    long quietAfter = quietAfter();
                    double quietRate = quietBefore * 1016.0 / (quietNanos / 1e9);
                    double stormRate = (tiny.get() * 64.0 + records.get() * 16_384.0) / (stormNanos / 1e9);
                    System.out.printf("done quietBefore=%d stormTiny=%d stormRecord=%d quietAfter=%d quietBytesPerSecond=%.0f"
                            + " stormBytesPerSecond=%.0f%n", quietBefore, tiny.get(), records.get(), quietAfter, quietRate, stormRate);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
    }

    static long quietBefore() throws InterruptedException {
        return quiet(QUIET_NANOS);
    }

    static long quietAfter() throws InterruptedException {
        return quiet(QUIET_AFTER_NANOS);
    }

    private static long quiet(long nanos) throws InterruptedException {
        long count = 0;
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            for (int i = 0; i < QUIET_PER_10_MS; i++) {
                sink = new byte[QUIET_LENGTH];
            }
            count += QUIET_PER_10_MS;
            Thread.sleep(10);
        }
        return count;
    }

    private static void storm(AtomicLong tiny, AtomicLong records) throws InterruptedException {
        storming = true;
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                long myTiny = 0;
                long myRecords = 0;
                while (storming) {
                    myTiny += stormTiny();
                    myRecords += stormRecord();
                }
                tiny.addAndGet(myTiny);
                records.addAndGet(myRecords);
            }, "storm-" + t);
            threads[t].start();
        }
        Thread.sleep(STORM_NANOS / 1_000_000);
        storming = false;
        for (Thread t : threads) {
            t.join();
        }
    }

    /** 1,000 x 64 bytes: about as many bytes as stormRecord's batch. */
    static int stormTiny() {
        for (int i = 0; i < 1_000; i++) {
            sink = new byte[TINY_LENGTH];
        }
        return 1_000;
    }

    static int stormRecord() {
        for (int i = 0; i < 4; i++) {
            sink = new byte[RECORD_LENGTH];
        }
        return 4;
    }
}
