package io.heaptap.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * A profiler configuration the suite compares: how to turn it on and off in a running target.
 * offEndsIt says whether "off" ends the tool's cost, so the window after it can serve as an
 * off-window beside the one before.
 */
record Tool(String name, String description, Action on, Action off, boolean offEndsIt) {

    Tool(String name, String description, Action on, Action off) {
        this(name, description, on, off, true);
    }

    interface Action {
        void run(BenchTarget target, Commands commands) throws Exception;
    }

    static Tool none() {
        return new Tool("none", "no agent", (t, c) -> { }, (t, c) -> { });
    }

    static Tool heaptap(String interval, boolean live) {
        String mode = live ? "live" : "no-live";
        return new Tool("heaptap " + interval + " " + mode, "heaptap capture at " + interval + (live ? " with" : " without")
                + " live tracking",
                (t, c) -> c.heaptap("start", Long.toString(t.pid()), "--duration", "1h", "--interval", interval,
                        live ? "--live-budget=65536" : "--no-live"),
                (t, c) -> c.heaptap("stop", Long.toString(t.pid())));
    }

    /** heaptap at its default sampling: the interval follows the default sample-rate target. */
    static Tool heaptapDefault(boolean live) {
        String mode = live ? "live" : "no-live";
        return new Tool("heaptap default " + mode, "heaptap capture at the default sample-rate target (about 5,000 samples/s)"
                + (live ? " with" : " without") + " live tracking",
                (t, c) -> c.heaptap("start", Long.toString(t.pid()), "--duration", "1h", live ? "--live-budget=65536" : "--no-live"),
                (t, c) -> c.heaptap("stop", Long.toString(t.pid())));
    }

    /**
     * heaptap's continuous mode, as a fleet runs it: {@code serve --continuous} (the default sample-rate
     * target, live tracking, no time box). Its "off" stops only the endpoint: sampling goes on, so the
     * after-stop column shows continuous sampling still running, unscraped.
     */
    static Tool heaptapContinuous() {
        return new Tool("heaptap continuous", "heaptap serve --continuous (default sample-rate target, live tracking, until stopped)",
                (t, c) -> c.heaptap("serve", Long.toString(t.pid()), "--continuous"),
                (t, c) -> c.heaptap("serve", Long.toString(t.pid()), "--stop"), false);
    }

    static Tool jfrProfile() {
        return new Tool("JFR profile", "JFR.start settings=profile (ObjectAllocationSample throttled, OldObjectSample on)",
                (t, c) -> c.run(List.of(t.jdk.bin("jcmd").toString(), Long.toString(t.pid()), "JFR.start", "name=bench",
                        "settings=profile")),
                (t, c) -> c.run(List.of(t.jdk.bin("jcmd").toString(), Long.toString(t.pid()), "JFR.stop", "name=bench")));
    }

    static Tool asyncProfiler(Path library, String event, String interval, boolean live) {
        String start = "start,event=" + event + ",alloc=" + interval + (live ? ",live" : "");
        return new Tool("async-profiler " + event + " " + interval + (live ? " live" : ""), "async-profiler 4.x " + start,
                (t, c) -> c.agentLoad(t.jdk.bin("jcmd"), t.pid(), library, start),
                (t, c) -> c.agentLoad(t.jdk.bin("jcmd"), t.pid(), library, "stop,file=/dev/null,collapsed"));
    }
}
