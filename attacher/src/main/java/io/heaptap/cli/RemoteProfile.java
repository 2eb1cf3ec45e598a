package io.heaptap.cli;

import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.jmx.RawDumpsMXBean;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.census.DumpCensus;
import io.heaptap.profile.census.DumpCensusJson;
import io.heaptap.wire.RawDump;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;

import javax.management.JMX;
import javax.management.MBeanServerInvocationHandler;

/**
 * A profile fetched from the target undecoded ({@link RawDump}) in chunks over JMX, and decoded
 * here: the target's heap holds one chunk at a time and never builds the profile or its format,
 * whatever its size. The CLI's heap holds the profile instead.
 */
final class RemoteProfile {
    static final int CHUNK_BYTES = 256 * 1024;

    private RemoteProfile() {
    }

    /** {@code census}: take a class census after the forced collection of {@code gc} (for a format that shows one). */
    static AllocationProfile fetch(HeaptapMXBean bean, LiveFilter filter, boolean gc, boolean census) throws IOException {
        RawDumpsMXBean heaptap = rawDumps(bean);
        boolean withCensus = gc && census;
        String id = heaptap.openRawDump(gc, withCensus);
        try {
            AllocationProfile profile = RawDump.read(new Chunks(heaptap, id), filter);
            return withCensus ? profile.withCensus(census(heaptap, id)) : profile;
        } finally {
            try {
                heaptap.closeRawDump(id);
            } catch (RuntimeException gone) {
                // the target exited (its memory went with it) or the dump expired; the read said so if it mattered
            }
        }
    }

    /** The census the target took right after the dump's forced collection, or why there is none. */
    private static DumpCensus census(RawDumpsMXBean heaptap, String id) {
        String json;
        try {
            json = heaptap.rawDumpCensus(id);
        } catch (RuntimeException e) {
            return DumpCensus.refused("the target's heaptap did not hand over a census (" + e.getMessage() + ")");
        }
        return json == null || json.isEmpty() ? DumpCensus.refused("the target took none") : DumpCensusJson.parse(json);
    }

    /** The raw-dump MBean beside heaptap's, over the same connection as the heaptap proxy. */
    private static RawDumpsMXBean rawDumps(HeaptapMXBean bean) {
        MBeanServerInvocationHandler handler = (MBeanServerInvocationHandler) Proxy.getInvocationHandler(bean);
        return JMX.newMXBeanProxy(handler.getMBeanServerConnection(), MBeanRegistration.rawDumpsName(), RawDumpsMXBean.class);
    }

    /** The raw dump as a stream, fetching the next chunk when the last one is used up. */
    private static final class Chunks extends InputStream {
        private final RawDumpsMXBean heaptap;
        private final String id;
        private byte[] chunk = new byte[0];
        private int position;
        private long offset;
        private boolean end;

        Chunks(RawDumpsMXBean heaptap, String id) {
            this.heaptap = heaptap;
            this.id = id;
        }

        @Override
        public int read() {
            return fill() ? chunk[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, chunk.length - position);
            System.arraycopy(chunk, position, b, off, n);
            position += n;
            return n;
        }

        private boolean fill() {
            if (position < chunk.length) {
                return true;
            }
            if (end) {
                return false;
            }
            chunk = heaptap.readRawDump(id, offset, CHUNK_BYTES);
            offset += chunk.length;
            position = 0;
            end = chunk.length == 0;
            return !end;
        }
    }
}
