package io.heaptap.cli;

import io.heaptap.agent.AgentArgumentCodec;
import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachRequests;
import io.heaptap.attach.MBeanRefusedException;
import io.heaptap.attach.Target;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.wire.options.ServeRequest;
import io.heaptap.wire.options.OptionKey;
import io.heaptap.wire.options.ServeKeys;
import io.heaptap.http.TokenFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

final class ServeCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("serve",
            List.of("Start heaptap's HTTP endpoint in the target (REST API, web page, /debug/pprof, /jolokia) and print its URL"
                            + " and how to send its token: every request needs it.",
                    "Without --token-file the target makes a token, in a file only its user and root can read.",
                    "Binds 127.0.0.1 unless told otherwise. Sampling stays off until started."),
            TARGET, List.of(
                    OptionFlags.value(ServeKeys.PORT),
                    OptionFlags.value(ServeKeys.BIND),
                    OptionFlags.value(ServeKeys.TOKEN_FILE),
                    OptionFlags.value(ServeKeys.CORS_ORIGIN),
                    Flag.toggle("--stop", "Stop the endpoint instead."),
                    OptionFlags.toggle(ServeKeys.CONTINUOUS),
                    OptionFlags.value(ServeKeys.SERVICE),
                    OptionFlags.value(ServeKeys.OTLP_PUSH),
                    OptionFlags.value(ServeKeys.OTLP_EVERY)),
            false);

    /** The keys the command line takes: all but the token itself, which would show in the process list. */
    static final List<OptionKey> KEYS = ServeKeys.ALL.stream().filter(k -> k != ServeKeys.TOKEN).toList();

    private final Map<String, String> given;
    private final Path tokenFile;
    private final boolean stop;
    private ServeRequest request;
    private ServeOptions options;

    ServeCommand(Arguments args) {
        super(args);
        given = OptionFlags.given(args, KEYS, List.of(ServeKeys.CONTINUOUS));
        tokenFile = args.path("--token-file");
        stop = args.has("--stop");
    }

    @Override
    void validate() {
        if (stop) {
            return;
        }
        request = serveRequest();
        options = request.serve();
    }

    /** What the flags ask for, as the vocabulary reads them, as it reads every door's; refusals spell the flags. */
    ServeRequest serveRequest() {
        try {
            return ServeKeys.parse(given, OptionKey::flag);
        } catch (IllegalArgumentException e) {
            throw new HeaptapException(ExitCode.USAGE, e.getMessage());
        }
    }

    /**
     * Reads --token-file once the target is known: the file must belong to the uid the target runs
     * as (see TokenFile.read), which the CLI, often root, cannot tell before.
     */
    @Override
    ExitCode run(Target t) throws Exception {
        if (!stop && tokenFile != null) {
            try {
                options = request.withToken(TokenFile.read(tokenFile, t.uid().orElse(-1))).serve();
            } catch (IllegalArgumentException e) {
                throw new HeaptapException(ExitCode.USAGE, e.getMessage());
            }
        }
        return super.run(t);
    }

    /** No JMX: the agent's arguments carry the options (the target reads the token file itself). */
    @Override
    ExitCode withoutJmx(Target t, MBeanRefusedException refused) {
        if (stop) {
            return super.withoutJmx(t, refused);
        }
        StringBuilder args = new StringBuilder("serve,port=").append(options.port()).append(",bind=").append(options.bind());
        if (tokenFile != null) {
            String path = tokenFile.toAbsolutePath().toString();
            if (path.contains(",")) {
                throw new HeaptapException(ExitCode.USAGE, "the token file's path must not contain a comma: " + path);
            }
            args.append(",token-file=").append(path);
        }
        if (options.allowOrigin() != null) {
            args.append(",cors-origin=").append(options.allowOrigin());
        }
        if (request.continuous()) {
            args.append(",continuous");
            if (request.service() != null) {
                args.append(",service=").append(AgentArgumentCodec.escape(request.service()));
            }
            OtlpPushOptions push = request.push();
            if (push != null) {
                args.append(",otlp-push=").append(AgentArgumentCodec.escape(push.endpoint().toString()))
                        .append(",otlp-every=").append(push.every().toMillis()).append("ms");
            }
        }
        AttachRequests.Served served = AttachRequests.serveWithoutJmx(t, args.toString());
        Terminal.println("pid " + t.pid() + ": serving at " + served.url());
        printCredential(served.url(), served.tokenFile());
        System.err.println("heaptap: " + refused.getMessage() + "; served through the agent's arguments instead");
        return ExitCode.OK;
    }

    @Override
    ExitCode run(AgentConnection connection) {
        HeaptapMXBean h = connection.heaptap();
        long pid = connection.target().pid();
        if (stop) {
            Terminal.println("pid " + pid + ": " + (h.stopServing() ? "stopped serving" : "was not serving"));
            return ExitCode.OK;
        }
        String running = h.getHttpUrl();
        if (!running.isEmpty()) {
            Terminal.println("pid " + pid + ": already serving at " + running);
            printCredential(running, h.getHttpTokenFile());
            return startContinuous(h, pid);
        }
        String url = h.startServing(options.bind(), options.port(), options.token() == null ? "" : options.token(),
                options.allowOrigin() == null ? "" : options.allowOrigin());
        Terminal.println("pid " + pid + ": serving at " + url);
        printCredential(url, h.getHttpTokenFile());
        return startContinuous(h, pid);
    }

    private ExitCode startContinuous(HeaptapMXBean h, long pid) {
        if (!request.continuous()) {
            return ExitCode.OK;
        }
        String running = h.getContinuous();
        if (!running.isEmpty()) {
            Terminal.println("pid " + pid + ": continuous sampling runs already, " + running);
        } else {
            Terminal.println("pid " + pid + ": continuous sampling " + h.startContinuous(request.service() == null ? "" : request.service()));
        }
        OtlpPushOptions push = request.push();
        if (push != null) {
            Terminal.println("pid " + pid + ": " + h.startOtlpPush(push.endpoint().toString(), push.every().toMillis() + "ms"));
        }
        return ExitCode.OK;
    }

    /** Where the token is and how to send it; never the token itself. */
    private void printCredential(String url, String targetTokenFile) {
        String file = targetTokenFile != null && !targetTokenFile.isEmpty() ? targetTokenFile
                : tokenFile != null ? tokenFile.toAbsolutePath().toString() : null;
        if (file == null) {
            Terminal.println("every request needs the token given with --token-file when serving started");
            return;
        }
        Terminal.println("every request needs the token in " + file + owner(Path.of(file)) + ":");
        Terminal.println("  curl -H \"Authorization: Bearer $(cat " + file + ")\" " + url + "api/status");
        Terminal.println("  browser: open " + url + " and sign in with any user name and the token as password");
    }

    private static String owner(Path file) {
        try {
            String owner = Files.getOwner(file).getName();
            return owner.equals("root") ? " (readable by root only)" : " (readable by " + owner + " and root only)";
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }
}
