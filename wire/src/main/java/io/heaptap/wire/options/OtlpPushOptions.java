package io.heaptap.wire.options;

import io.heaptap.profile.HumanUnits;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * Where and how often continuous sampling pushes its profile to an OpenTelemetry Collector's
 * OTLP/HTTP receiver ({@code serve --continuous --otlp-push URL [--otlp-every DURATION]}, or
 * {@code ,otlp-push=URL,otlp-every=DURATION} in the agent's arguments). Every door builds one through
 * {@link #parse}, so all refuse the same bad values with the same messages.
 *
 * <p>Any host the user names is allowed: pushing to the fleet's collector is the point. Over
 * {@code http://} the body goes unencrypted; {@code https://} is the only TLS. A URL with user info,
 * a query or a fragment is refused: it would be printed in every status.
 *
 * @param endpoint where each body is POSTed; a base URL without a path gets {@link #PATH}
 * @param every    the time between the end of one push and the start of the next
 */
public record OtlpPushOptions(URI endpoint, Duration every) {
    /** The OTLP/HTTP path of the profiles signal while it is in development (opentelemetry-proto 1.10). */
    public static final String PATH = "/v1development/profiles";
    public static final Duration DEFAULT_EVERY = Duration.ofSeconds(60);
    /**
     * Each push decodes the whole continuous profile once, as a scrape does; a second is as often as
     * that is worth it (Pyroscope scrapes every 15 s). Short periods are for trying it out and tests.
     */
    public static final Duration MIN_EVERY = Duration.ofSeconds(1);
    public static final Duration MAX_EVERY = Duration.ofHours(1);
    /**
     * A body above this is not sent (and counted): below the Collector's default request limit
     * ({@code max_request_body_size}, 20 MiB), and far below heaptap's heap budget.
     */
    public static final int MAX_BODY_BYTES = 8 << 20;

    public OtlpPushOptions {
        if (every.compareTo(MIN_EVERY) < 0 || every.compareTo(MAX_EVERY) > 0) {
            throw new IllegalArgumentException("otlp-every must be between " + HumanUnits.formatDuration(MIN_EVERY) + " and "
                    + HumanUnits.formatDuration(MAX_EVERY) + ", not " + HumanUnits.formatDuration(every));
        }
    }

    /**
     * Every refusal's message starts with the option's name ({@code otlp-push}, {@code otlp-every}), so each
     * door can prefix its own spelling ({@code --} on the command line).
     *
     * <p>From the user's text: {@code url} an {@code http://} or {@code https://} URL with a host
     * ({@code http://127.0.0.1:4318}); {@code every} a duration ({@code 60s}, {@code 5m}), null or blank for the default.
     */
    public static OtlpPushOptions parse(String url, String every) {
        return new OtlpPushOptions(endpoint(url), every == null || every.isBlank() ? DEFAULT_EVERY : duration(every.strip()));
    }

    private static Duration duration(String text) {
        if (text.startsWith("-")) {
            throw new IllegalArgumentException("otlp-every must be positive, not " + text);
        }
        try {
            return HumanUnits.parseDuration(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("otlp-every: " + e.getMessage());
        }
    }

    static URI endpoint(String url) {
        String text = url == null ? "" : url.strip();
        String usage = " (expected the collector's OTLP/HTTP URL, for example http://127.0.0.1:4318)";
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("otlp-push: cannot read '" + text + "' as a URL" + usage);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("otlp-push: '" + text + "' is not an http:// or https:// URL" + usage);
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw new IllegalArgumentException("otlp-push: '" + text + "' names no host" + usage);
        }
        if (u.getRawUserInfo() != null) {
            // Not echoed: the text holds a credential.
            throw new IllegalArgumentException("otlp-push: the URL holds user info (name:password@); heaptap sends no credentials"
                    + " and would print them in its status");
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("otlp-push: '" + text + "' has a query or fragment; give the receiver's base URL"
                    + " or its full path" + usage);
        }
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/") ? PATH : u.getRawPath();
        return URI.create(scheme + "://" + u.getRawAuthority() + path);
    }

    /** {@code http://host:4318/v1development/profiles every 60s}. */
    public String describe() {
        return endpoint + " every " + HumanUnits.formatDuration(every);
    }
}
