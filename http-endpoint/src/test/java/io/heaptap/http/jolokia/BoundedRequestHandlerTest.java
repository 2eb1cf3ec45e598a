package io.heaptap.http.jolokia;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BoundedRequestHandlerTest {
    @Test
    void aClientMayAskForLessNeverForMore() {
        assertEquals("5", BoundedRequestHandler.clamp("5", 1000));
        assertEquals("1000", BoundedRequestHandler.clamp("0", 1000), "Jolokia takes 0 as no limit at all");
        assertEquals("1000", BoundedRequestHandler.clamp("-1", 1000));
        assertEquals("1000", BoundedRequestHandler.clamp("1000000", 1000));
        assertEquals("1000", BoundedRequestHandler.clamp("\u0665", 1000));
        assertEquals("1000", BoundedRequestHandler.clamp(null, 1000));
    }
}
