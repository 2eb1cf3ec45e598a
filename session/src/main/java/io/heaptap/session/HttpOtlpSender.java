package io.heaptap.session;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.PasswordAuthentication;
import java.net.Proxy;
import java.net.URI;

/**
 * One blocking POST per push with the JDK's {@link HttpURLConnection}, on the push's own thread (which
 * is heaptap's: its allocations are not sampled). Not {@code java.net.http.HttpClient}: it starts a
 * selector thread of its own, which heaptap could not mark, so its allocations would show in the
 * application's profile. The connection is closed after each answer ({@code disconnect()}), so the JDK
 * keeps no idle connection and starts no keep-alive timer thread; the application's settings that
 * would otherwise apply are kept out: no proxy (the user named the collector), no response cache, no
 * redirects, no authenticator (a JVM-wide default CookieHandler the application installed still sees the
 * answer: there is no per-connection switch for it). The response body (OTLP's partial success, or an error's status) is not
 * read: the HTTP status is what counts.
 */
final class HttpOtlpSender implements OtlpSender {
    /** A collector that does not accept in 3 s, or answer 5 s after the body (per read), costs a failed push. */
    static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    static final int READ_TIMEOUT_MILLIS = 5_000;

    /** Answers every request for credentials with none, whatever the application's default authenticator would. */
    private static final Authenticator NONE = new Authenticator() {
        @Override
        protected PasswordAuthentication getPasswordAuthentication() {
            return null;
        }
    };

    @Override
    public int post(URI endpoint, byte[] body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) endpoint.toURL().openConnection(Proxy.NO_PROXY);
        try {
            c.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
            c.setReadTimeout(READ_TIMEOUT_MILLIS);
            c.setUseCaches(false);
            c.setInstanceFollowRedirects(false);
            c.setAuthenticator(NONE);
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setFixedLengthStreamingMode(body.length);
            c.setRequestProperty("Content-Type", "application/x-protobuf");
            c.setRequestProperty("User-Agent", "heaptap");
            try (OutputStream out = c.getOutputStream()) {
                out.write(body);
            }
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }
}
