package io.heaptap.nativeagent;

import io.heaptap.wire.LiveProof;

import java.io.IOException;
import java.io.InputStream;

/**
 * A snapshot kept in the agent's native memory (snapshotBuffers.h) until closed, read in chunks:
 * neither the target's heap nor a JMX message ever holds all of it. The agent keeps a few at a
 * time; close each one (try-with-resources).
 */
public final class RawSnapshot implements AutoCloseable {
    /** The chunk a reader copies at a time. */
    public static final int CHUNK_BYTES = 64 * 1024;

    private final long handle;
    private final long size;
    private final LiveProof proof;
    private boolean closed;

    RawSnapshot(long handle, long size, LiveProof proof) {
        this.handle = handle;
        this.size = size;
        this.proof = proof;
    }

    /** What the snapshot's live set is judged against, with the heap in use around it. */
    public LiveProof proof() {
        return proof;
    }

    public long size() {
        return size;
    }

    /** Copies up to {@code dst.length} bytes from {@code offset}; returns how many (0 at the end). */
    public int read(long offset, byte[] dst) throws IOException {
        int n = NativeAgent.readSnapshot(handle, offset, dst);
        if (n < 0) {
            throw new IOException("the snapshot is no longer held (closed, or the agent was reset)");
        }
        return n;
    }

    /** The snapshot as a stream, one chunk on the heap at a time. */
    public InputStream stream() {
        return new InputStream() {
            private final byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, Math.max(1, size))];
            private long offset;
            private int position;
            private int limit;

            @Override
            public int read() throws IOException {
                return fill() ? chunk[position++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                if (!fill()) {
                    return -1;
                }
                int n = Math.min(len, limit - position);
                System.arraycopy(chunk, position, b, off, n);
                position += n;
                return n;
            }

            private boolean fill() throws IOException {
                if (position < limit) {
                    return true;
                }
                limit = RawSnapshot.this.read(offset, chunk);
                offset += limit;
                position = 0;
                return limit > 0;
            }
        };
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            NativeAgent.closeSnapshot(handle);
        }
    }
}
