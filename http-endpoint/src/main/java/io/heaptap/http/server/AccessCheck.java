package io.heaptap.http.server;

import io.heaptap.http.route.HttpError;
import io.heaptap.session.ServeOptions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Who may use the endpoint, checked before any route runs:
 * <ul>
 * <li>with a token, every request must carry {@code Authorization: Bearer <token>}, compared in
 *     constant time (digests of equal length, {@link MessageDigest#isEqual});</li>
 * <li>a browser's cross-origin request (an {@code Origin} that is not this server) is refused
 *     unless it is the one configured CORS origin, so a web page elsewhere cannot start, reset or
 *     read heaptap through the user's browser;</li>
 * <li>without a token, the {@code Host} header must be an IP address or {@code localhost}, which
 *     defeats DNS rebinding (a hostile name re-pointed at 127.0.0.1).</li>
 * </ul>
 */
final class AccessCheck {
    private static final Pattern IP_HOST = Pattern.compile("\\[[0-9A-Fa-f:.]+](:\\d+)?|[0-9.]+(:\\d+)?");

    private final byte[] tokenDigest;
    private final String allowOrigin;

    AccessCheck(ServeOptions options) {
        this.tokenDigest = options.token() == null ? null : sha256(options.token());
        this.allowOrigin = options.allowOrigin();
    }

    /** Throws 401 or 403 when the request may not proceed. */
    void check(Map<String, String> headers) {
        String host = headers.get("host");
        if (tokenDigest != null) {
            String auth = headers.get("authorization");
            if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
                throw unauthorized("this endpoint needs Authorization: Bearer <token>");
            }
            if (!MessageDigest.isEqual(tokenDigest, sha256(auth.substring(7).strip()))) {
                throw unauthorized("wrong token");
            }
        } else if (host != null && !isIpOrLocalhost(host)) {
            throw new HttpError(403, "Host '" + host + "' refused: without a token heaptap answers only requests addressed to an IP"
                    + " address or localhost");
        }
        String origin = headers.get("origin");
        if (origin != null && !origin.equals("http://" + host) && !origin.equals(allowOrigin)) {
            throw new HttpError(403, "cross-origin request from " + origin + " refused (serve with --cors-origin to allow one origin)");
        }
    }

    /** The CORS origin to echo for this request, or null (CORS off, or another origin). */
    String corsOrigin(Map<String, String> headers) {
        String origin = headers.get("origin");
        return allowOrigin != null && allowOrigin.equals(origin) ? origin : null;
    }

    private static HttpError unauthorized(String message) {
        return new HttpError(401, message, null, Map.of("WWW-Authenticate", "Bearer realm=\"heaptap\""));
    }

    private static boolean isIpOrLocalhost(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("localhost:") || IP_HOST.matcher(h).matches();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
