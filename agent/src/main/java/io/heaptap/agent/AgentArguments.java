package io.heaptap.agent;

import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.wire.options.ServeRequest;
import io.heaptap.wire.options.OptionKey;
import io.heaptap.wire.options.ServeKeys;
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
public record AgentArguments(Optional<ServeOptions> serve, boolean continuous, String service, Optional<OtlpPushOptions> push) {
    static final AgentArguments DORMANT = new AgentArguments(Optional.empty(), false, null, Optional.empty());
    /** The keys these arguments take: all but the token itself, which would show in the process list. */
    private static final List<OptionKey> KEYS = ServeKeys.ALL.stream().filter(k -> k != ServeKeys.TOKEN).toList();

    public static AgentArguments parse(String args) {
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
        decoded.onlyNames(KEYS.stream().map(OptionKey::name).toList());
        // A refusal that points at another option spells it as these arguments do: ",continuous".
        ServeRequest request = ServeKeys.parse(decoded.values(), k -> k == ServeKeys.CONTINUOUS ? "," + k.name() : k.name());
        if (request.tokenFile() != null) {
            request = request.withToken(TokenFile.read(Path.of(request.tokenFile())));
        }
        return new AgentArguments(Optional.of(request.serve()), request.continuous(), request.service(),
                Optional.ofNullable(request.push()));
    }
}
