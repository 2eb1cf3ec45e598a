package io.heaptap.wire.options;

import io.heaptap.wire.options.ServeKeys;

/**
 * What a request to serve asks for, as {@link ServeKeys} reads it from any door: the endpoint, and
 * optionally continuous sampling and its OTLP push.
 *
 * @param serve      how to serve; its token is null until the door has read {@code tokenFile}
 * @param tokenFile  the file holding the token, or null: read by the door, which knows whose file it must be
 * @param continuous whether continuous sampling starts too
 * @param service    the service name scrapes carry, or null: the main class or jar
 * @param push       the OTLP push, or null: none
 */
public record ServeRequest(ServeOptions serve, String tokenFile, boolean continuous, String service, OtlpPushOptions push) {
    /** The same request with the token read from {@link #tokenFile}. */
    public ServeRequest withToken(String token) {
        return new ServeRequest(new ServeOptions(serve.bind(), serve.port(), token, serve.allowOrigin()), tokenFile, continuous,
                service, push);
    }
}
