package io.heaptap.http.route;

import java.util.List;
import java.util.Map;

/**
 * One HTTP request, complete and detached from Netty: routes see only this.
 *
 * @param method  GET, POST, ...
 * @param path    the decoded path, e.g. {@code /api/status}
 * @param rawPath the path as sent, still percent-encoded (Jolokia needs it)
 * @param query   query parameters in order of appearance
 * @param headers header values by lower-case name (the first of each)
 * @param body    the request body (bounded by the server's limit)
 * @param client  the peer, e.g. {@code 127.0.0.1:53122}
 */
public record Request(String method, String path, String rawPath, Map<String, List<String>> query, Map<String, String> headers,
                      byte[] body, String client) {

    public QueryParams params() {
        return new QueryParams(query);
    }

    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }
}
