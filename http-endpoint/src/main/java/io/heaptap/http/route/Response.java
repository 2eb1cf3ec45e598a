package io.heaptap.http.route;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP response, complete: the server adds the headers every response carries (length,
 * nosniff, no caching, CORS when configured).
 *
 * @param status      the HTTP status
 * @param contentType the media type of the body
 * @param body        the body
 * @param headers     extra headers, e.g. Content-Disposition
 * @param sharedBody  the body is held anyway (a web page asset), so waiting for its client costs no heap
 */
public record Response(int status, String contentType, byte[] body, Map<String, String> headers, boolean sharedBody) {
    public static final String JSON = "application/json; charset=utf-8";

    public Response(int status, String contentType, byte[] body, Map<String, String> headers) {
        this(status, contentType, body, headers, false);
    }

    public static Response json(int status, String json) {
        return new Response(status, JSON, json.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    public static Response ok(String contentType, byte[] body) {
        return new Response(200, contentType, body, Map.of());
    }

    public Response withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new Response(status, contentType, body, Map.copyOf(more), sharedBody);
    }

    /** The same response, its body marked as held anyway. */
    public Response shared() {
        return new Response(status, contentType, body, headers, true);
    }
}
