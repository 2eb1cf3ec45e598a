package io.heaptap.agent;

import io.heaptap.session.ServeOptions;
import io.heaptap.http.TokenFile;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The agent's argument string, for start-up loading where JMX may not be wanted or dynamic loading
 * is disabled: {@code -javaagent:heaptap.jar=serve,port=8080,bind=127.0.0.1,token-file=/path,cors-origin=https://host}.
 * An empty string means dormant: nothing serves and nothing samples until asked.
 */
record AgentArguments(Optional<ServeOptions> serve) {
    static final AgentArguments DORMANT = new AgentArguments(Optional.empty());

    static AgentArguments parse(String args) {
        if (args == null || args.isBlank()) {
            return DORMANT;
        }
        String[] parts = args.split(",");
        if (!parts[0].trim().equals("serve")) {
            throw new IllegalArgumentException("unknown heaptap agent argument '" + parts[0].trim()
                    + "' (expected nothing, or serve[,port=N][,bind=ADDRESS][,token-file=PATH][,cors-origin=URL])");
        }
        String bind = null;
        int port = 0;
        String token = null;
        String origin = null;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            int eq = part.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("heaptap agent argument '" + part + "' should be name=value");
            }
            String name = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            switch (name) {
                case "port" -> port = port(value);
                case "bind" -> bind = value;
                case "token-file" -> token = TokenFile.read(Path.of(value));
                case "cors-origin" -> origin = value;
                default -> throw new IllegalArgumentException("unknown heaptap serve option '" + name
                        + "' (port, bind, token-file, cors-origin)");
            }
        }
        return new AgentArguments(Optional.of(new ServeOptions(bind, port, token, origin)));
    }

    private static int port(String value) {
        if (!value.matches("[0-9]{1,5}")) {  // ASCII digits only: parseInt would also take other scripts' digits
            throw new IllegalArgumentException("port must be a number, not '" + value + "'");
        }
        return Integer.parseInt(value);
    }
}
