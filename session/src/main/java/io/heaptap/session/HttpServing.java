package io.heaptap.session;

import io.heaptap.wire.options.ServeOptions;
import java.util.Optional;

/**
 * heaptap's HTTP endpoint as the MXBean and the agent's start-up see it. The server itself lives
 * in the http-endpoint module, which depends on this one; this interface is how the MXBean reaches
 * it without depending on Netty.
 */
public interface HttpServing {

    /** Starts serving unless it already does; either way says where it serves. */
    Serving start(ServeOptions options);

    /** Stops serving; returns whether it was serving. */
    boolean stop();

    /** The URL while serving. */
    Optional<String> url();

    /** While serving with a token the target made: the owner-only file that holds it. */
    Optional<String> tokenFile();

    /**
     * @param url            where the server listens, e.g. {@code http://127.0.0.1:8080/}
     * @param alreadyServing true when the server was already running (with its own options)
     */
    record Serving(String url, boolean alreadyServing) {
    }
}
