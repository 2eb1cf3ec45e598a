package io.heaptap.http.jolokia;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class AnswerBufferTest {
    @Test
    void countsUtf8BytesAcrossChunksAndRefusesPastItsLimit() throws IOException {
        AnswerBuffer out = new AnswerBuffer(40_000);
        String text = "é".repeat(10_000) + "x";  // 20,001 bytes: past one 16 KiB chunk
        Writer w = out.writer();
        w.write(text);
        w.flush();
        assertEquals(20_001, out.size());
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), out.toByteArray());

        int mark = out.size();
        Writer more = out.writer();
        assertThrows(AnswerBuffer.TooLarge.class, () -> {
            more.write("y".repeat(25_000));
            more.flush();
        });
        out.truncate(mark);
        out.appendAscii("]");
        assertEquals(20_002, out.size());
        assertArrayEquals((text + "]").getBytes(StandardCharsets.UTF_8), out.toByteArray());
    }

    @Test
    void truncatingToAChunkBoundaryAndWritingAgainKeepsTheBytesInOrder() throws IOException {
        AnswerBuffer out = new AnswerBuffer(100_000);
        out.appendAscii("a".repeat(16 * 1024));
        out.appendAscii("b".repeat(100));
        out.truncate(16 * 1024);
        out.appendAscii("c".repeat(16 * 1024 + 1));
        assertEquals("a".repeat(16 * 1024) + "c".repeat(16 * 1024 + 1), new String(out.toByteArray(), StandardCharsets.US_ASCII));
    }
}
