package io.heaptap.http.server;

import io.heaptap.http.route.HttpError;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Who may use the endpoint, checked before any route runs. Loopback is no boundary (every local
 * user can connect), so the credential is what keeps heaptap to the people the Attach API lets in:
 * the target's user and root, who alone can read the token file.
 * <ul>
 * <li>Every request, on every route, needs the token: as {@code Authorization: Bearer <token>}
 *     (curl, scrapers, Jolokia clients), or as the password of HTTP Basic (a browser's sign-in
 *     prompt; the browser keeps it for this origin only, port included, unlike a cookie). Compared
 *     in constant time (digests of equal length, {@link MessageDigest#isEqual}).</li>
 * <li>An HTTP/1.1 request needs exactly one {@code Host}; {@code Origin} and {@code Authorization}
 *     may each come once: two of them leave open which one a check looked at.</li>
 * <li>A browser's request from another site ({@code Origin} not this server's, or
 *     {@code Sec-Fetch-Site} cross-site or same-site) is refused unless it comes from the one
 *     configured CORS origin, so a page elsewhere cannot use the user's browser as its door.</li>
 * <li>A state change (any method but GET) needs a request no web page can forge: a bearer token
 *     (a page cannot make a browser add one) or {@code Content-Type: application/json} (a cross-origin
 *     page must ask first, and is refused). A GET that starts something (a {@code ?seconds} window, a
 *     forced collection) needs a bearer token, or Basic from a client with none of a browser's marks
 *     ({@link #notFromABrowser}).</li>
 * </ul>
 */
final class AccessCheck {
    /** Both schemes heaptap takes: Basic makes a browser show its sign-in prompt. */
    static final String CHALLENGE = "Bearer realm=\"heaptap\"\nBasic realm=\"heaptap\", charset=\"UTF-8\"";
    private static final Set<String> OWN_SITE = Set.of("same-origin", "none");

    private final byte[] tokenDigest;
    private final String allowOrigin;

    AccessCheck(String token, String allowOrigin) {
        this.tokenDigest = sha256(token);
        this.allowOrigin = allowOrigin;
    }

    /**
     * The result of a passed check: whether the request is one a web page cannot forge (see
     * {@code Request#unforgeable}): a bearer token, or Basic from a client that is not a browser.
     */
    record Passed(boolean unforgeable) {
    }

    /** Throws 400, 401 or 403 when the request may not proceed. */
    Passed check(HttpVersion version, HttpMethod method, HttpHeaders headers) {
        String host = single(headers, "host");
        if (host == null && version.equals(HttpVersion.HTTP_1_1)) {
            throw new HttpError(400, "an HTTP/1.1 request needs a Host header");
        }
        String origin = single(headers, "origin");
        boolean bearer = authenticate(single(headers, "authorization"));
        if (origin != null && !origin.equals("http://" + host) && !origin.equals(allowOrigin)) {
            throw new HttpError(403, "cross-origin request from " + origin + " refused (serve with --cors-origin to allow one origin)");
        }
        String site = headers.get("sec-fetch-site");
        if (site != null && !OWN_SITE.contains(site.toLowerCase(Locale.ROOT)) && (origin == null || !origin.equals(allowOrigin))) {
            throw new HttpError(403, "a request another site made your browser send (Sec-Fetch-Site: " + site + ") is refused");
        }
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD) && !bearer && !isJson(headers.get("content-type"))) {
            throw new HttpError(403, method + " changes state and needs a request a web page cannot forge: send the token as"
                    + " Authorization: Bearer <token>, or Content-Type: application/json");
        }
        return new Passed(bearer || notFromABrowser(headers, origin, site));
    }

    /**
     * A Basic credential a web page cannot have made a browser send: no browser's marks at all. Every
     * browser names itself {@code Mozilla/...}, and every current one adds {@code Sec-Fetch-*} (an old one
     * without them still sends its {@code Mozilla/} user agent, which no page can change). So go tool
     * pprof's {@code http://user:token@host/...?seconds=N}, which has no header option and sends its URL's
     * user info as Basic, may start a window, and a page that makes a browser send a saved password may not.
     */
    static boolean notFromABrowser(HttpHeaders headers, String origin, String site) {
        String agent = headers.get("user-agent");
        return origin == null && site == null && headers.get("sec-fetch-mode") == null && headers.get("sec-fetch-dest") == null
                && (agent == null || !agent.startsWith("Mozilla/"));
    }

    /** A CORS preflight from the configured origin is answered without a credential: browsers never send one there. */
    boolean isAllowedPreflight(HttpMethod method, HttpHeaders headers) {
        return method.equals(HttpMethod.OPTIONS) && allowOrigin != null && allowOrigin.equals(headers.get("origin"))
                && headers.getAll("origin").size() == 1;
    }

    /** The CORS origin to echo for this request, or null (CORS off, or another origin). */
    String corsOrigin(HttpHeaders headers) {
        List<String> origins = headers.getAll("origin");
        return allowOrigin != null && origins.size() == 1 && allowOrigin.equals(origins.get(0)) ? allowOrigin : null;
    }

    /** True for a bearer token, false for Basic; 401 without the right token. */
    private boolean authenticate(String authorization) {
        if (authorization == null) {
            throw unauthorized("this endpoint needs the token: Authorization: Bearer <token> (heaptap serve prints where it is)");
        }
        String a = authorization.strip();
        if (a.regionMatches(true, 0, "Bearer ", 0, 7)) {
            if (!matches(a.substring(7).strip())) {
                throw unauthorized("wrong token");
            }
            return true;
        }
        if (a.regionMatches(true, 0, "Basic ", 0, 6)) {
            String userAndPassword;
            try {
                userAndPassword = new String(Base64.getDecoder().decode(a.substring(6).strip()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw unauthorized("Basic credentials that are not Base64");
            }
            int colon = userAndPassword.indexOf(':');
            if (colon < 0 || !matches(userAndPassword.substring(colon + 1))) {
                throw unauthorized("wrong token (sign in with any user name and the token as the password)");
            }
            return false;
        }
        throw unauthorized("unsupported Authorization scheme: use Bearer <token>");
    }

    private boolean matches(String candidate) {
        return MessageDigest.isEqual(tokenDigest, sha256(candidate));
    }

    private static String single(HttpHeaders headers, String name) {
        List<String> values = headers.getAll(name);
        if (values.size() > 1) {
            throw new HttpError(400, "more than one " + name + " header");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return type.equals("application/json");
    }

    private static HttpError unauthorized(String message) {
        return new HttpError(401, message, null, Map.of("WWW-Authenticate", CHALLENGE));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
