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
 * @param unforgeable the request is one no web page can make a browser send: a bearer token (a program
 *                sets it itself), or HTTP Basic from a client with none of a browser's marks (go tool pprof's
 *                URL user info); false for a browser's saved password
 */
public record Request(String method, String path, String rawPath, Map<String, List<String>> query, Map<String, String> headers,
                      byte[] body, String client, boolean unforgeable) {

    public QueryParams params() {
        return new QueryParams(query);
    }

    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    /**
     * Refuses a GET that changes something (starts a capture, forces a collection) unless no web page
     * could have made a browser send it: a browser sends its saved password with any page's {@code <img>}.
     */
    public void requireUnforgeable(String what) {
        if (!unforgeable) {
            throw new HttpError(403, what + " needs Authorization: Bearer <token>, or the token in the URL from a program"
                    + " that is not a browser (go tool pprof http://heaptap:TOKEN@host:port/...): a browser's saved password"
                    + " is not enough, since any web page can make the browser send it with a GET");
        }
    }
}
