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
 * @param bearer  the credential came as {@code Authorization: Bearer}, which a program sets itself and a
 *                web page cannot make a browser send; false for a browser's saved password (Basic)
 */
public record Request(String method, String path, String rawPath, Map<String, List<String>> query, Map<String, String> headers,
                      byte[] body, String client, boolean bearer) {

    public QueryParams params() {
        return new QueryParams(query);
    }

    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    /**
     * Refuses a GET that changes something (starts a capture, forces a collection) unless its
     * credential is a bearer token: a browser sends its saved password with any page's {@code <img>}.
     */
    public void requireBearer(String what) {
        if (!bearer) {
            throw new HttpError(403, what + " needs Authorization: Bearer <token>: a browser's saved password is not enough,"
                    + " since any web page can make the browser send it with a GET");
        }
    }
}
