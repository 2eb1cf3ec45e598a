package io.heaptap.wire.options;

import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.wire.options.ServeRequest;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The options of serving (the HTTP endpoint, continuous sampling, its OTLP push), each declared once
 * ({@link OptionKey}), and the one parser the CLI's {@code serve} flags, the {@code -javaagent:heaptap.jar=serve,...}
 * arguments and the MBean's {@code startServing}, {@code startContinuous} and {@code startOtlpPush} use.
 * A missing, blank or {@code default} value is the default.
 */
public final class ServeKeys {
    public static final OptionKey PORT = new OptionKey("port", "<n>", "0, any free port", "TCP port, 0-65535; 0 picks a free one.",
            List.of());
    public static final OptionKey BIND = new OptionKey("bind", "<address>", ServeOptions.DEFAULT_BIND,
            "IP address to bind (an IP literal or localhost).", List.of());
    public static final OptionKey TOKEN_FILE = new OptionKey("token-file", "<file>", "the target makes a token, in a file only its"
            + " user and root can read", "File (mode 600) holding the token every request must send.", List.of());
    public static final OptionKey TOKEN = new OptionKey("token", "<token>", "the target makes one, see HttpTokenFile",
            "Token every request must carry (" + ServeOptions.MIN_TOKEN_LENGTH + "+ printable characters).", List.of());
    public static final OptionKey CORS_ORIGIN = new OptionKey("cors-origin", "<url>", "off",
            "The one origin browsers may call from (CORS), e.g. https://grafana.example.", List.of());
    public static final OptionKey CONTINUOUS = new OptionKey("continuous", "<true|false>", "false",
            "Also sample continuously until stopped, for Pyroscope/Alloy and Parca: /debug/pprof/allocs is then cumulative,"
                    + " as a Go service serves it (see docs/continuous.md).", List.of());
    public static final OptionKey SERVICE = new OptionKey("service", "<name>", "the main class or jar",
            "With continuous: the service name scrapes carry.", List.of());
    public static final OptionKey OTLP_PUSH = new OptionKey("otlp-push", "<url>", "no push",
            "With continuous: also push the profile, as OTLP profiles (alpha), to an OpenTelemetry Collector's OTLP/HTTP"
                    + " receiver, e.g. http://127.0.0.1:4318 (see docs/continuous.md).", List.of());
    public static final OptionKey OTLP_EVERY = new OptionKey("otlp-every", "<duration>", OptionKey.words(OtlpPushOptions.DEFAULT_EVERY),
            "With otlp-push: the time between pushes, " + OptionKey.words(OtlpPushOptions.MIN_EVERY) + " to "
                    + OptionKey.words(OtlpPushOptions.MAX_EVERY) + ".", List.of());
    public static final List<OptionKey> ALL = List.of(PORT, BIND, TOKEN_FILE, TOKEN, CORS_ORIGIN, CONTINUOUS, SERVICE, OTLP_PUSH,
            OTLP_EVERY);

    private ServeKeys() {
    }

    /**
     * The request from text by name; absent, blank or {@code default}: the default. A refusal names its key;
     * one that points at another key spells it as the door does ({@code spell}: {@code --continuous} on the
     * command line, {@code ,continuous} in the agent's arguments).
     */
    public static ServeRequest parse(Map<String, String> given, Function<OptionKey, String> spell) {
        GivenOptions text = GivenOptions.resolve("serve option", ALL, given);
        ServeOptions serve = new ServeOptions(text.read(BIND, ServeOptions.DEFAULT_BIND, ServeOptions::checkBind),
                text.read(PORT, 0, ServeKeys::port), text.read(TOKEN, null, ServeOptions::checkToken),
                text.read(CORS_ORIGIN, null, ServeOptions::checkOrigin));
        String tokenFile = text.text(TOKEN_FILE);
        if (tokenFile != null && serve.token() != null) {
            throw new BadOptionException(TOKEN.name(), "give a token or a token file, not both");
        }
        boolean continuous = text.flag(CONTINUOUS, false);
        String service = text.text(SERVICE);
        if (service != null && !continuous) {
            throw new BadOptionException(SERVICE.name(), spell.apply(SERVICE) + " names continuous sampling's scrapes: add "
                    + spell.apply(CONTINUOUS));
        }
        if (text.text(OTLP_PUSH) != null && !continuous) {
            throw new BadOptionException(OTLP_PUSH.name(), spell.apply(OTLP_PUSH) + " pushes continuous sampling's profile: add "
                    + spell.apply(CONTINUOUS));
        }
        return new ServeRequest(serve, tokenFile, continuous, service, push(text, spell));
    }

    /** The OTLP push alone (the MBean's startOtlpPush), or null when no URL is given. */
    public static OtlpPushOptions push(Map<String, String> given) {
        return push(GivenOptions.resolve("OTLP push option", List.of(OTLP_PUSH, OTLP_EVERY), given), OptionKey::name);
    }

    private static OtlpPushOptions push(GivenOptions text, Function<OptionKey, String> spell) {
        String url = text.text(OTLP_PUSH);
        String every = text.text(OTLP_EVERY);
        if (every != null && url == null) {
            throw new BadOptionException(OTLP_EVERY.name(), spell.apply(OTLP_EVERY) + " is the period of the OTLP push: add "
                    + spell.apply(OTLP_PUSH) + " URL");
        }
        if (url == null) {
            return null;
        }
        // OtlpPushOptions' refusals start with the key's name: the door spells it.
        try {
            return OtlpPushOptions.parse(url, every);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            OptionKey key = m.startsWith(OTLP_EVERY.name()) ? OTLP_EVERY : OTLP_PUSH;
            throw new BadOptionException(key.name(), m.startsWith(key.name()) ? spell.apply(key) + m.substring(key.name().length()) : m);
        }
    }

    private static int port(String value) {
        if (!value.matches("[0-9]{1,5}")) {  // ASCII digits only: parseInt would also take other scripts' digits
            throw new IllegalArgumentException("port must be a number, not '" + value + "'");
        }
        return ServeOptions.checkPort(Integer.parseInt(value));
    }
}
