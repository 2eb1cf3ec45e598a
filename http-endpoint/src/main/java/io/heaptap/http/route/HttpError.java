package io.heaptap.http.route;

import java.util.Map;

/**
 * A request heaptap refuses, with the status to answer and, for a bad parameter, which one.
 * The server turns it into a JSON error body.
 */
public final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String parameter;
    private final Map<String, String> headers;

    public HttpError(int status, String message) {
        this(status, message, null, Map.of());
    }

    public HttpError(int status, String message, String parameter, Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.parameter = parameter;
        this.headers = Map.copyOf(headers);
    }

    public static HttpError badParameter(String parameter, String why) {
        return new HttpError(400, "bad parameter '" + parameter + "': " + why, parameter, Map.of());
    }

    public int status() {
        return status;
    }

    /** The parameter at fault, or null. */
    public String parameter() {
        return parameter;
    }

    /** Headers the answer must carry, e.g. Allow on a 405. */
    public Map<String, String> headers() {
        return headers;
    }
}
