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
import io.heaptap.session.OtlpPushOptions;
import io.heaptap.session.ServeOptions;
import io.heaptap.http.TokenFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

final class ServeCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("serve",
            List.of("Start heaptap's HTTP endpoint in the target (REST API, web page, /debug/pprof, /jolokia) and print its URL"
                            + " and how to send its token: every request needs it.",
                    "Without --token-file the target makes a token, in a file only its user and root can read.",
                    "Binds 127.0.0.1 unless told otherwise. Sampling stays off until started."),
            TARGET, List.of(
                    Flag.value("--port", "N", "TCP port; 0 (the default) picks a free one."),
                    Flag.value("--bind", "ADDRESS", "IP address to bind (default: " + ServeOptions.DEFAULT_BIND + ")."),
                    Flag.value("--token-file", "FILE",
                            "File (mode 600) holding the token every request must send, instead of one the target makes."),
                    Flag.value("--cors-origin", "URL", "The one origin browsers may call from (CORS); off by default."),
                    Flag.toggle("--stop", "Stop the endpoint instead."),
                    Flag.toggle("--continuous", "Also sample continuously until stopped, for Pyroscope/Alloy and Parca:"
                            + " /debug/pprof/allocs is then cumulative, as a Go service serves it (see docs/continuous.md)."),
                    Flag.value("--service", "NAME", "With --continuous: the service name scrapes carry"
                            + " (default: the main class or jar)."),
                    Flag.value("--otlp-push", "URL", "With --continuous: also push the profile, as OTLP profiles (alpha), to an"
                            + " OpenTelemetry Collector's OTLP/HTTP receiver, e.g. http://127.0.0.1:4318 (see docs/continuous.md)."),
                    Flag.value("--otlp-every", "DURATION", "With --otlp-push: the time between pushes, 1s to 1h (default: 60s).")),
            false);

    private final int port;
    private final String bind;
    private final Path tokenFile;
    private final String corsOrigin;
    private final boolean stop;
    private final boolean continuous;
    private final String service;
    private final String otlpPush;
    private final String otlpEvery;
    private OtlpPushOptions push;

    ServeCommand(Arguments args) {
        super(args);
        port = args.intValue("--port", 0);
        bind = args.value("--bind", ServeOptions.DEFAULT_BIND);
        tokenFile = args.path("--token-file");
        corsOrigin = args.value("--cors-origin");
        stop = args.has("--stop");
        continuous = args.has("--continuous");
        service = args.value("--service");
        otlpPush = args.value("--otlp-push");
        otlpEvery = args.value("--otlp-every");
    }

    private ServeOptions options;

    @Override
    void validate() {
        if (stop) {
            return;
        }
        if (service != null && !continuous) {
            throw new HeaptapException(ExitCode.USAGE, "--service names continuous sampling's scrapes: add --continuous");
        }
        if (otlpPush != null && !continuous) {
            throw new HeaptapException(ExitCode.USAGE, "--otlp-push pushes continuous sampling's profile: add --continuous");
        }
        if (otlpEvery != null && otlpPush == null) {
            throw new HeaptapException(ExitCode.USAGE, "--otlp-every is the period of the OTLP push: add --otlp-push URL");
        }
        if (otlpPush != null) {
            try {
                push = OtlpPushOptions.parse(otlpPush, otlpEvery);
            } catch (IllegalArgumentException e) {
                throw new HeaptapException(ExitCode.USAGE, "--" + e.getMessage());
            }
        }
        options = options(null);
    }

    private ServeOptions options(String token) {
        try {
            return new ServeOptions(bind, port, token, corsOrigin);
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
                options = options(TokenFile.read(tokenFile, t.uid().orElse(-1)));
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
        if (continuous) {
            args.append(",continuous");
            if (service != null) {
                args.append(",service=").append(AgentArgumentCodec.escape(service));
            }
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
        if (!continuous) {
            return ExitCode.OK;
        }
        String running = h.getContinuous();
        if (!running.isEmpty()) {
            Terminal.println("pid " + pid + ": continuous sampling runs already, " + running);
        } else {
            Terminal.println("pid " + pid + ": continuous sampling " + h.startContinuous(service == null ? "" : service));
        }
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
