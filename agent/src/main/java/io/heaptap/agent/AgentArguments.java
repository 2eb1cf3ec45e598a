package io.heaptap.agent;

import io.heaptap.session.OtlpPushOptions;
import io.heaptap.session.ServeOptions;
import io.heaptap.http.TokenFile;

import java.nio.file.Path;
import java.util.Optional;
import java.util.List;

/**
 * The agent's argument string for serving, for start-up loading where JMX may not be wanted or dynamic
 * loading is disabled: {@code -javaagent:heaptap.jar=serve,port=8080,bind=127.0.0.1,token-file=/path,cors-origin=https://host};
 * with {@code ,continuous} (and {@code ,service=NAME}) sampling runs from start-up until stopped, for scrapers,
 * and with {@code ,otlp-push=URL} (and {@code ,otlp-every=DURATION}) it is also pushed to an OTLP/HTTP receiver
 * (the grammar, and its {@code %XX} escapes, are {@link AgentArgumentCodec}'s). An empty string means
 * dormant: nothing serves and nothing samples until asked. The CLI's {@link CaptureRequest} is the
 * other command; {@link AgentEntry} tells them apart.
 */
record AgentArguments(Optional<ServeOptions> serve, boolean continuous, String service, Optional<OtlpPushOptions> push) {
    static final AgentArguments DORMANT = new AgentArguments(Optional.empty(), false, null, Optional.empty());
    private static final List<String> SERVE_NAMES = List.of("port", "bind", "token-file", "cors-origin", "continuous", "service",
            "otlp-push", "otlp-every");

    static AgentArguments parse(String args) {
        if (args == null || args.isBlank()) {
            return DORMANT;
        }
        return parse(AgentArgumentCodec.decode(args));
    }

    static AgentArguments parse(AgentArgumentCodec.Decoded decoded) {
        if (!decoded.command().equals("serve")) {
            throw new IllegalArgumentException("unknown heaptap agent argument '" + decoded.command()
                    + "' (expected nothing, or serve[,port=N][,bind=ADDRESS][,token-file=PATH][,cors-origin=URL][,continuous][,service=NAME][,otlp-push=URL][,otlp-every=DURATION])");
        }
        decoded.onlyNames(SERVE_NAMES);
        String port = decoded.values().get("port");
        String token = decoded.values().get("token-file");
        boolean continuous = decoded.values().containsKey("continuous") && decoded.flag("continuous");
        String service = decoded.values().get("service");
        if (service != null && !continuous) {
            throw new IllegalArgumentException("service=" + service + " names continuous sampling's scrapes: add ,continuous");
        }
        String pushUrl = decoded.values().get("otlp-push");
        String pushEvery = decoded.values().get("otlp-every");
        if (pushUrl != null && !continuous) {
            throw new IllegalArgumentException("otlp-push pushes continuous sampling's profile: add ,continuous");
        }
        if (pushEvery != null && pushUrl == null) {
            throw new IllegalArgumentException("otlp-every is the period of the OTLP push: add ,otlp-push=URL");
        }
        Optional<OtlpPushOptions> push = pushUrl == null ? Optional.empty() : Optional.of(OtlpPushOptions.parse(pushUrl, pushEvery));
        return new AgentArguments(Optional.of(new ServeOptions(decoded.values().get("bind"), port == null ? 0 : port(port),
                token == null ? null : TokenFile.read(Path.of(token)), decoded.values().get("cors-origin"))), continuous, service, push);
    }

    private static int port(String value) {
        if (!value.matches("[0-9]{1,5}")) {  // ASCII digits only: parseInt would also take other scripts' digits
            throw new IllegalArgumentException("port must be a number, not '" + value + "'");
        }
        return Integer.parseInt(value);
    }
}
