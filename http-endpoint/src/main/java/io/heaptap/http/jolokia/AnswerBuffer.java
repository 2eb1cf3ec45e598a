package io.heaptap.http.jolokia;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Jolokia answer as UTF-8 bytes, counted while it is written and refused past a fixed size: the
 * size of an answer is known only once it is built, and building it whole first (a string, then its
 * bytes) was what ran a small heap out of memory. Kept in chunks, so it never holds more than its
 * content and one chunk, and never copies itself to grow.
 */
final class AnswerBuffer {
    private static final int CHUNK = 16 * 1024;

    /** Thrown by a write past the limit; what was written before it can be taken back with {@link #truncate}. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super(null, null);
        }
    }

    private final int limit;
    private final List<byte[]> chunks = new ArrayList<>();
    private int size;

    AnswerBuffer(int limit) {
        this.limit = limit;
    }

    int size() {
        return size;
    }

    /** A writer appending UTF-8 here; flush it to have everything written counted. */
    Writer writer() {
        return new OutputStreamWriter(new Bytes(), StandardCharsets.UTF_8);
    }

    /** Appends ASCII text that must fit (the brackets and commas of a bulk answer, a short error). */
    void appendAscii(String text) {
        try (Writer w = writer()) {
            w.write(text);
        } catch (IOException e) {
            throw new IllegalStateException("heaptap kept no room for " + text.length() + " characters of an answer", e);
        }
    }

    /** Takes back everything written after the first {@code mark} bytes. */
    void truncate(int mark) {
        if (mark < 0 || mark > size) {
            throw new IllegalArgumentException("mark " + mark + " outside 0.." + size);
        }
        size = mark;
        int keep = (mark + CHUNK - 1) / CHUNK;
        while (chunks.size() > keep) {
            chunks.remove(chunks.size() - 1);
        }
    }

    byte[] toByteArray() {
        byte[] out = new byte[size];
        for (int i = 0, at = 0; at < size; i++, at += CHUNK) {
            System.arraycopy(chunks.get(i), 0, out, at, Math.min(CHUNK, size - at));
        }
        return out;
    }

    private final class Bytes extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > limit - size) {
                throw new TooLarge();
            }
            while (len > 0) {
                int in = size % CHUNK;
                if (in == 0 && chunks.size() == size / CHUNK) {
                    chunks.add(new byte[CHUNK]);
                }
                int n = Math.min(len, CHUNK - in);
                System.arraycopy(b, off, chunks.get(size / CHUNK), in, n);
                size += n;
                off += n;
                len -= n;
            }
        }
    }
}
