package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.StatusView;
import io.heaptap.profile.HumanUnits;

import java.util.List;
import java.util.Locale;

final class StatusCommand extends TargetCommand {
    static final Syntax SYNTAX = Syntax.of("status", "Show heaptap's state in the target.", TARGET, List.of());

    StatusCommand(Arguments args) {
        super(args);
    }

    @Override
    ExitCode run(AgentConnection connection) {
        print(connection.target().pid(), connection.heaptap());
        return ExitCode.OK;
    }

    /** How the leak report's line starts; the status has its own label column. */
    private static final String OOM_LABEL = "time to OOM: ";

    /** One read of the Status composite: one round trip, and figures from one snapshot of the session. */
    static void print(long pid, HeaptapMXBean heaptap) {
        StatusView s = heaptap.getStatus();
        Terminal.printf("pid:          %d%n", pid);
        Terminal.printf("state:        %s%n", s.getState());
        Terminal.printf("started by:   %s%n", s.getStartedBy().isEmpty() ? "-" : s.getStartedBy());
        Terminal.printf("started at:   %s%n", s.getStartTime().isEmpty() ? "-" : s.getStartTime());
        Terminal.printf("time left:    %.1fs%n", s.getTimeLeftMillis() / 1000.0);
        Terminal.printf("interval:     %s, depth %d%n", s.getSampling(), s.getStackDepth());
        Terminal.printf("cost:         %s%n", s.getSamplingCost());
        Terminal.printf("continuous:   %s%n", s.getContinuous().isEmpty() ? "off" : s.getContinuous());
        if (s.getProfileError().isEmpty()) {
            // The capture's live view, or continuous sampling's while it runs and no capture has (the session chooses).
            boolean shown = s.isLiveTracking() || s.getTrackedObjects() > 0 || !s.getContinuous().isEmpty();
            List<String> live = shown ? s.getLiveReport() : List.of();
            Terminal.printf("samples:      %,d (dropped %,d)%n", s.getSamples(), s.getSamplesDropped());
            Terminal.printf("allocated:    %s (estimate)%n", HumanUnits.formatBytes(s.getEstimatedAllocatedBytes()));
            Terminal.printf("live:         %s%n", live.isEmpty() ? "not tracked" : live.get(0));
            for (String line : live.subList(Math.min(1, live.size()), live.size())) {
                Terminal.printf("              %s%n", line);
            }
            if (!live.isEmpty()) {
                Terminal.printf("              %,d tracked objects, budget %,d, keep-probability %.4g%n", s.getTrackedObjects(),
                        s.getLiveBudget(), s.getKeepProbability());
            }
        } else {
            // Summarising the profile would take more of the target's heap than heaptap's budget: say so, go on.
            Terminal.printf("samples:      %,d%n", s.getSamples());
            Terminal.printf("profile:      %s%n", s.getProfileError());
        }
        List<String> gc = s.getGcReport();
        Terminal.printf("gc:           %s%n", gc.isEmpty() ? "-" : gc.get(0));
        for (String line : gc.subList(Math.min(1, gc.size()), gc.size())) {
            Terminal.printf("              %s%n", line);
        }
        Terminal.printf("leak watch:   %s%n", s.getLeakWatchState().equals("idle") ? "none"
                : String.format(Locale.ROOT, "%s, %,d snapshots", s.getLeakWatchState(), s.getLeakWatchSnapshots()));
        String oom = s.getTimeToOom();
        Terminal.printf("time to OOM:  %s%n", oom.isEmpty() ? "not projected (a leak watch with --gc projects it: heaptap leaks " + pid + " --gc)"
                : oom.startsWith(OOM_LABEL) ? oom.substring(OOM_LABEL.length()) : oom);
        Terminal.printf("native mem:   %s%n", HumanUnits.formatBytes(s.getNativeMemoryBytes()));
        Terminal.printf("heap budget:  %s of this JVM's heap at most, for any one request%n", HumanUnits.formatBytes(s.getHeapBudgetBytes()));
        Terminal.printf("weak refs:    %,d%n", s.getWeakRefs());
        Terminal.printf("dump folder:  %s%n", s.getDumpDirectory());
        Terminal.printf("http:         %s%n", s.getHttpUrl().isEmpty() ? "not serving" : s.getHttpUrl());
        Terminal.printf("agent:        heaptap %s%s%n", s.getAgentVersion(),
                s.getNativeAgentError().isEmpty() ? "" : " (native agent unavailable: " + s.getNativeAgentError() + ")");
    }
}
