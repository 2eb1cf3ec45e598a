package io.heaptap.http.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/** Which requests may start something with a GET: those no web page can make a browser send. */
class AccessCheckTest {
    private static final String TOKEN = "s3cret-token";
    private final AccessCheck check = new AccessCheck(TOKEN, null);

    private static HttpHeaders basic(String... more) {
        HttpHeaders h = new DefaultHttpHeaders().set("host", "127.0.0.1:4000")
                .set("authorization", "Basic " + Base64.getEncoder().encodeToString(("heaptap:" + TOKEN).getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < more.length; i += 2) {
            h.set(more[i], more[i + 1]);
        }
        return h;
    }

    private boolean unforgeable(HttpHeaders h) {
        return check.check(HttpVersion.HTTP_1_1, HttpMethod.GET, h).unforgeable();
    }

    @Test
    void goToolPprofsUrlCredentialMayStartAWindow() {
        assertTrue(unforgeable(basic("user-agent", "Go-http-client/1.1", "accept-encoding", "gzip")));
        assertTrue(unforgeable(basic("user-agent", "curl/7.88.1")));
    }

    @Test
    void aBrowsersSavedPasswordMayNot() {
        // a page's <img> or link in a current browser, the user's own typing in the address bar, and an old
        // browser without Sec-Fetch-* whose page suppressed the Referer: all name themselves Mozilla/
        assertFalse(unforgeable(basic("user-agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0", "sec-fetch-site", "none",
                "sec-fetch-mode", "navigate")));
        assertFalse(unforgeable(basic("user-agent", "Mozilla/5.0 (Macintosh) Safari/605.1.15")));
        assertFalse(unforgeable(basic("user-agent", "Go-http-client/1.1", "sec-fetch-mode", "no-cors")));
        assertFalse(unforgeable(basic("user-agent", "Go-http-client/1.1", "sec-fetch-dest", "image")));
        assertFalse(unforgeable(basic("user-agent", "Go-http-client/1.1", "origin", "http://127.0.0.1:4000")));
    }

    @Test
    void aBearerTokenAlwaysMay() {
        HttpHeaders h = new DefaultHttpHeaders().set("host", "127.0.0.1:4000").set("authorization", "Bearer " + TOKEN)
                .set("user-agent", "Mozilla/5.0");
        assertTrue(unforgeable(h));
    }
}
