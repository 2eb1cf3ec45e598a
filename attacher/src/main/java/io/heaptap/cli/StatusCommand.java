package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.profile.HumanUnits;

import java.util.List;
import java.util.Locale;

import picocli.CommandLine.Command;

@Command(name = "status", mixinStandardHelpOptions = true, description = "Show heaptap's state in the target.")
final class StatusCommand extends TargetCommand {
    @Override
    ExitCode run(AgentConnection connection) {
        HeaptapMXBean h = connection.heaptap();
        System.out.printf(Locale.ROOT, "pid:          %d%n", connection.target().pid());
        System.out.printf(Locale.ROOT, "state:        %s%n", h.getState());
        System.out.printf(Locale.ROOT, "started by:   %s%n", h.getStartedBy().isEmpty() ? "-" : h.getStartedBy());
        System.out.printf(Locale.ROOT, "started at:   %s%n", h.getStartTime().isEmpty() ? "-" : h.getStartTime());
        System.out.printf(Locale.ROOT, "time left:    %.1fs%n", h.getTimeLeftMillis() / 1000.0);
        System.out.printf(Locale.ROOT, "interval:     %s, depth %d%n", HumanUnits.formatBytes(h.getSamplingIntervalBytes()),
                h.getStackDepth());
        System.out.printf(Locale.ROOT, "samples:      %,d (dropped %,d)%n", h.getSamples(), h.getSamplesDropped());
        System.out.printf(Locale.ROOT, "allocated:    %s (estimate)%n", HumanUnits.formatBytes(h.getEstimatedAllocatedBytes()));
        List<String> live = h.isLiveTracking() || h.getTrackedObjects() > 0 ? h.getLiveReport() : List.of();
        System.out.printf(Locale.ROOT, "live:         %s%n", live.isEmpty() ? "not tracked" : live.get(0));
        for (String line : live.subList(Math.min(1, live.size()), live.size())) {
            System.out.printf(Locale.ROOT, "              %s%n", line);
        }
        if (!live.isEmpty()) {
            System.out.printf(Locale.ROOT, "              %,d tracked objects, budget %,d, keep-probability %.4g%n", h.getTrackedObjects(),
                    h.getLiveBudget(), h.getKeepProbability());
        }
        List<String> gc = h.getGcReport();
        System.out.printf(Locale.ROOT, "gc:           %s%n", gc.isEmpty() ? "-" : gc.get(0));
        for (String line : gc.subList(Math.min(1, gc.size()), gc.size())) {
            System.out.printf(Locale.ROOT, "              %s%n", line);
        }
        System.out.printf(Locale.ROOT, "native mem:   %s%n", HumanUnits.formatBytes(h.getNativeMemoryBytes()));
        System.out.printf(Locale.ROOT, "weak refs:    %,d%n", h.getWeakRefs());
        System.out.printf(Locale.ROOT, "dump folder:  %s%n", h.getDumpDirectory());
        System.out.printf(Locale.ROOT, "http:         %s%n", h.getHttpUrl().isEmpty() ? "not serving" : h.getHttpUrl());
        System.out.printf(Locale.ROOT, "agent:        heaptap %s%s%n", h.getAgentVersion(),
                h.getNativeAgentError().isEmpty() ? "" : " (native agent unavailable: " + h.getNativeAgentError() + ")");
        return ExitCode.OK;
    }
}
