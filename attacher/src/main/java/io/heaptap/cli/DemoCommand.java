package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachRequests;
import io.heaptap.attach.Target;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.launcher.HeaptapJar;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.CaptureKeys;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

final class DemoCommand implements Callable<Integer> {
    static final Syntax SYNTAX = Syntax.of("demo",
            "Start a demo JVM with a known allocation mix, capture it, print the table and write an HTML flame graph.", null,
            List.of(Flag.value("--duration", "<duration>", "How long to capture. Default: 5s."),
                    Flag.value("--html", "<file>", "Where to write the flame graph. Default: heaptap-demo.html.")));

    private final String duration;
    private final Path html;

    DemoCommand(Arguments args) {
        duration = args.value("--duration", "5s");
        Path given = args.path("--html");
        html = given == null ? Path.of("heaptap-demo.html") : given;
    }

    @Override
    public Integer call() throws Exception {
        CaptureOptions options = CaptureKeys.parse(java.util.Map.of(CaptureKeys.DURATION.name(), duration));
        Output htmlOut = Output.resolve("html", html);
        Process demo = startDemoJvm();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
            String ready = lines.readLine();
            if (ready == null || !ready.startsWith(DemoTarget.READY)) {
                throw new HeaptapException(ExitCode.INTERNAL, "the demo JVM did not start");
            }
            Target target = new Target(demo.pid(), "heaptap demo");
            System.err.println("heaptap: demo JVM is pid " + demo.pid() + "; capturing for "
                    + options.duration().toSeconds() + "s");
            Interruption interruption = new Interruption().install();
            try {
                AttachRequests.Started started = CaptureRun.start(target, options, TargetCommand.client("demo"));
                try (AgentConnection connection = AgentConnection.open(target)) {
                    ExitCode code = CaptureRun.follow(connection, started, options, Output.resolve("text", null), LiveViewFlags.NONE,
                            interruption);
                    CaptureRun.write(connection, LiveViewFlags.NONE.dump(connection.heaptap(), htmlOut.format()), htmlOut);
                    System.err.println("heaptap: open " + htmlOut.file() + " in a browser for the flame graph");
                    return code.code();
                }
            } finally {
                interruption.finish();
            }
        } finally {
            demo.destroy();
            demo.waitFor(Duration.ofSeconds(10).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    private static Process startDemoJvm() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m"));
        if (Runtime.version().feature() >= 21) {
            cmd.add("-XX:+EnableDynamicAgentLoading");  // JEP 451: say that dynamic loading is intended
        }
        cmd.addAll(List.of("-jar", HeaptapJar.path().toAbsolutePath().toString(), "__demo-target"));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
