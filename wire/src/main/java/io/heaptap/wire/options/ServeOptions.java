package io.heaptap.wire.options;

import java.util.regex.Pattern;

/**
 * How heaptap's HTTP endpoint is asked to serve. Every entry point (CLI, MXBean, -javaagent
 * arguments) reads one from text through {@code ServeKeys}, which checks each value here, so they all
 * refuse the same bad values with the same messages.
 *
 * @param bind        the address to bind: an IP literal or {@code localhost}; no name lookups
 * @param port        the TCP port, 0 for any free one
 * @param token       the token every request must carry, or null: the target then makes one (the HTTP endpoint's TokenFile.generate)
 * @param allowOrigin the one origin CORS allows (e.g. {@code https://grafana.example}), or null: CORS off
 */
public record ServeOptions(String bind, int port, String token, String allowOrigin) {
    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int MIN_TOKEN_LENGTH = 16;
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f]{0,4}){1,7}(:[0-9.]+)?");
    private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7e]+");
    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.\\-\\[\\]:]+");

    public ServeOptions {
        bind = checkBind(bind);
        checkPort(port);
        token = checkToken(token);
        allowOrigin = checkOrigin(allowOrigin);
    }

    /** The address to bind, without brackets; blank: {@link #DEFAULT_BIND}. */
    public static String checkBind(String bind) {
        bind = bind == null || bind.isBlank() ? DEFAULT_BIND : bind.trim();
        if (bind.startsWith("[") && bind.endsWith("]")) {
            bind = bind.substring(1, bind.length() - 1);
        }
        if (!bind.equalsIgnoreCase("localhost") && !IPV4.matcher(bind).matches() && !IPV6.matcher(bind).matches()) {
            throw new IllegalArgumentException("bind must be an IP address (for example 127.0.0.1 or ::1) or localhost, not '"
                    + bind + "'");
        }
        return bind;
    }

    public static int checkPort(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 (any free port) and 65535, not " + port);
        }
        return port;
    }

    /** The token stripped; blank: null, the target makes one. */
    public static String checkToken(String token) {
        if (token == null || token.isBlank()) {
            return null;
        }
        token = token.strip();
        if (token.length() < MIN_TOKEN_LENGTH || !TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException("the token must be at least " + MIN_TOKEN_LENGTH
                    + " printable characters without spaces (for example from: openssl rand -hex 24)");
        }
        return token;
    }

    /** The origin as given; blank: null, CORS off. */
    public static String checkOrigin(String allowOrigin) {
        if (allowOrigin == null || allowOrigin.isBlank()) {
            return null;
        }
        if (!ORIGIN.matcher(allowOrigin.trim()).matches()) {
            throw new IllegalArgumentException("the CORS origin must look like https://host[:port], not '" + allowOrigin + "'");
        }
        return allowOrigin;
    }

    public static ServeOptions loopback(int port) {
        return new ServeOptions(DEFAULT_BIND, port, null, null);
    }

    @Override
    public String toString() {
        // Never print the token.
        return "ServeOptions[bind=" + bind + ", port=" + port + ", token=" + (token == null ? "generated" : "given")
                + ", allowOrigin=" + allowOrigin + "]";
    }
}
