package io.heaptap.session;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.wire.RawDump;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The raw dumps clients are reading ({@link RawDump}): each is a native snapshot plus its header,
 * read in chunks of at most {@link #MAX_CHUNK_BYTES} and closed by the client, or after a minute
 * without reads (a client that died). The agent holds a few snapshots at most, in native memory.
 *
 * <p>While any dump is open a reaper runs on the timer every half idle time. Whether it runs is
 * decided under this object's lock, by the open that finds none running and by the reaper that
 * finds nothing left: decided outside it, a dump opened while the reaper
 * closed the last one could be left without a reaper, held in native memory until the next dump.
 */
final class RawDumps {
    static final int MAX_CHUNK_BYTES = 256 * 1024;
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(1);
    static final int MAX_OPEN = NativeAgent.MAX_OPEN_SNAPSHOTS - 1;
    /** A CLI reads its dump chunk after chunk without pause; 10 s without a read is a client that stopped. */
    static final long ABANDONED_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final ScheduledExecutorService timer;
    private final long idleNanos;
    private final long abandonedNanos;
    private boolean reaping;

    private static final class Open {
        final byte[] prefix;
        final RawSnapshot snapshot;
        /** What the prefix holds of heaptap's heap budget; null for nothing counted. */
        final HeapBudget.Reservation held;
        /** The census taken after the dump's forced collection, as bounded JSON; empty without one. */
        final String census;
        long lastUse = System.nanoTime();

        Open(byte[] prefix, RawSnapshot snapshot, HeapBudget.Reservation held, String census) {
            this.prefix = prefix;
            this.snapshot = snapshot;
            this.held = held;
            this.census = census == null ? "" : census;
        }

        void close() {
            snapshot.close();
            if (held != null) {
                held.close();
            }
        }
    }

    /** Made at the first raw dump: making it (the security providers, the seed) took 13-50 ms of a busy target's first capture start, while the CLI waited. */
    private SecureRandom random;
    private final Map<String, Open> open = new HashMap<>();

    RawDumps(ScheduledExecutorService timer) {
        this(timer, IDLE_NANOS, ABANDONED_NANOS);
    }

    RawDumps(ScheduledExecutorService timer, long idleNanos, long abandonedNanos) {
        this.timer = timer;
        this.idleNanos = idleNanos;
        this.abandonedNanos = abandonedNanos;
    }

    /**
     * Makes room for one more raw dump, before its snapshot is made: closes idle dumps, and when all
     * {@link #MAX_OPEN} are open, the one unread longest if nobody has read it for the abandoned time.
     *
     * @throws SessionConflictException every raw dump is being read: busy, retry
     */
    synchronized void admit() {
        closeIdle();
        if (open.size() < MAX_OPEN) {
            return;
        }
        long now = System.nanoTime();
        Map.Entry<String, Open> stalest = null;
        for (Map.Entry<String, Open> e : open.entrySet()) {
            if (stalest == null || e.getValue().lastUse < stalest.getValue().lastUse) {
                stalest = e;
            }
        }
        if (stalest != null && now - stalest.getValue().lastUse >= abandonedNanos) {
            close(stalest.getKey());
            return;
        }
        throw new SessionConflictException("busy: " + MAX_OPEN + " raw dumps are being read by other clients (each ends when"
                + " read, or " + TimeUnit.NANOSECONDS.toSeconds(abandonedNanos) + " s after its last read when all are taken);"
                + " retry in a few seconds");
    }

    synchronized int openCount() {
        return open.size();
    }

    /** Keeps a snapshot for its client; admit first (one that finds no room is closed and refused as busy). */
    synchronized String open(byte[] prefix, RawSnapshot snapshot) {
        return open(prefix, snapshot, null);
    }

    /** As {@link #open(byte[], RawSnapshot)}, {@code held} closed with the dump (what its prefix holds of the heap budget). */
    synchronized String open(byte[] prefix, RawSnapshot snapshot, HeapBudget.Reservation held) {
        return open(prefix, snapshot, held, "");
    }

    /** As {@link #open(byte[], RawSnapshot, HeapBudget.Reservation)}, with the census of its forced collection (JSON, or empty). */
    synchronized String open(byte[] prefix, RawSnapshot snapshot, HeapBudget.Reservation held, String census) {
        Open dump = new Open(prefix, snapshot, held, census);
        try {
            admit();
        } catch (SessionConflictException busy) {
            dump.close();
            throw busy;
        }
        if (random == null) {
            random = new SecureRandom();
        }
        byte[] id = new byte[12];
        random.nextBytes(id);
        String name = HexFormat.of().formatHex(id);
        open.put(name, dump);
        if (!reaping) {
            reaping = true;
            timer.schedule(this::reap, idleNanos / 2, TimeUnit.NANOSECONDS);
        }
        return name;
    }

    synchronized boolean isOpen(String id) {
        return open.containsKey(id);
    }

    private synchronized void reap() {
        closeIdle();
        if (open.isEmpty()) {
            reaping = false;
        } else {
            timer.schedule(this::reap, idleNanos / 2, TimeUnit.NANOSECONDS);
        }
    }

    /** Up to {@code maxBytes} (at most {@link #MAX_CHUNK_BYTES}) from {@code offset}; empty at the end. */
    synchronized byte[] read(String id, long offset, int maxBytes) throws IOException {
        Open dump = open.get(id);
        if (dump == null) {
            throw new IllegalArgumentException("no raw dump '" + id + "' is open: it was closed, idle for a minute, or reset");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, not " + offset);
        }
        dump.lastUse = System.nanoTime();
        int max = Math.max(1, Math.min(MAX_CHUNK_BYTES, maxBytes));
        if (offset < dump.prefix.length) {
            int n = (int) Math.min(max, dump.prefix.length - offset);
            byte[] chunk = new byte[n];
            System.arraycopy(dump.prefix, (int) offset, chunk, 0, n);
            return chunk;
        }
        long at = offset - dump.prefix.length;
        byte[] chunk = new byte[(int) Math.max(0, Math.min(max, dump.snapshot.size() - at))];
        if (chunk.length > 0) {
            dump.snapshot.read(at, chunk);
        }
        return chunk;
    }

    /** The census kept with an open dump (JSON, or empty when it forced no collection). */
    synchronized String census(String id) {
        Open dump = open.get(id);
        if (dump == null) {
            throw new IllegalArgumentException("no raw dump '" + id + "' is open: it was closed, idle for a minute, or reset");
        }
        dump.lastUse = System.nanoTime();
        return dump.census;
    }

    synchronized void close(String id) {
        Open dump = open.remove(id);
        if (dump != null) {
            dump.close();
        }
    }

    /** Closes the dumps nobody has read for a minute. */
    synchronized void closeIdle() {
        long now = System.nanoTime();
        for (Iterator<Open> it = open.values().iterator(); it.hasNext(); ) {
            Open dump = it.next();
            if (now - dump.lastUse > idleNanos) {
                dump.close();
                it.remove();
            }
        }
    }

    synchronized void closeAll() {
        open.values().forEach(Open::close);
        open.clear();
    }
}
