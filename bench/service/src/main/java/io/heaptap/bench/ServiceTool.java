package io.heaptap.bench;

import java.nio.file.Path;
import java.util.List;

/** A profiler the service benchmark turns on and off in the running service, and how. */
record ServiceTool(String name, String description, Action on, Action off) {

    interface Action {
        void run(BenchTarget.Jdk jdk, long pid, Commands commands) throws Exception;
    }

    /**
     * heaptap as a user starts it: {@code heaptap start PID --duration D}, every other setting its
     * default. The duration outlasts the on-window (the driver stops it), and ends it if the driver dies.
     */
    static ServiceTool heaptapDefaults(long captureSeconds) {
        return new ServiceTool(ServiceResults.HEAPTAP, "heaptap start --duration " + captureSeconds + "s (default settings), then stop",
                (jdk, pid, c) -> c.heaptap("start", Long.toString(pid), "--duration", captureSeconds + "s"),
                (jdk, pid, c) -> c.heaptap("stop", Long.toString(pid)));
    }

    static ServiceTool asyncProfiler(Path library, boolean live) {
        String start = "start,event=alloc,alloc=512k" + (live ? ",live" : "");
        return new ServiceTool("async-profiler alloc" + (live ? ",live" : ""), "async-profiler 4.x " + start + " (jcmd JVMTI.agent_load)",
                (jdk, pid, c) -> c.agentLoad(jdk.bin("jcmd"), pid, library, start),
                (jdk, pid, c) -> c.agentLoad(jdk.bin("jcmd"), pid, library, "stop,file=/dev/null,collapsed"));
    }

    static ServiceTool jfrProfile() {
        return new ServiceTool("JFR profile", "jcmd JFR.start settings=profile, then JFR.stop",
                (jdk, pid, c) -> c.run(List.of(jdk.bin("jcmd").toString(), Long.toString(pid), "JFR.start", "name=service",
                        "settings=profile")),
                (jdk, pid, c) -> c.run(List.of(jdk.bin("jcmd").toString(), Long.toString(pid), "JFR.stop", "name=service")));
    }
}
