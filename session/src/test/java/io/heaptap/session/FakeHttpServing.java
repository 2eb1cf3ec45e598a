package io.heaptap.session;

import io.heaptap.wire.options.ServeOptions;
import java.util.Optional;

/**
 * heaptap's HTTP endpoint as the doors' unit tests need it: serving at a fixed URL with a token file,
 * or not serving. It never starts a server: a test that needs one runs the real endpoint.
 */
public record FakeHttpServing(Optional<String> url, Optional<String> tokenFile) implements HttpServing {
    public static final FakeHttpServing NOT_SERVING = new FakeHttpServing(Optional.empty(), Optional.empty());

    /** Serving at {@code url}, its token in {@code tokenFile}. */
    public static FakeHttpServing at(String url, String tokenFile) {
        return new FakeHttpServing(Optional.of(url), Optional.of(tokenFile));
    }

    @Override
    public Serving start(ServeOptions options) {
        throw new UnsupportedOperationException("the doors' unit tests start no server");
    }

    @Override
    public boolean stop() {
        return false;
    }
}
