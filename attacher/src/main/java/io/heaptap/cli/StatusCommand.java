package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;
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
        Terminal.printf("pid:          %d%n", connection.target().pid());
        Terminal.printf("state:        %s%n", h.getState());
        Terminal.printf("started by:   %s%n", h.getStartedBy().isEmpty() ? "-" : h.getStartedBy());
        Terminal.printf("started at:   %s%n", h.getStartTime().isEmpty() ? "-" : h.getStartTime());
        Terminal.printf("time left:    %.1fs%n", h.getTimeLeftMillis() / 1000.0);
        Terminal.printf("interval:     %s, depth %d%n", h.getSampling(), h.getStackDepth());
        long samples = h.getSamples();
        try {
            long dropped = h.getSamplesDropped();
            double allocated = h.getEstimatedAllocatedBytes();
            List<String> live = h.isLiveTracking() || h.getTrackedObjects() > 0 ? h.getLiveReport() : List.of();
            Terminal.printf("samples:      %,d (dropped %,d)%n", samples, dropped);
            Terminal.printf("allocated:    %s (estimate)%n", HumanUnits.formatBytes(allocated));
            Terminal.printf("live:         %s%n", live.isEmpty() ? "not tracked" : live.get(0));
            for (String line : live.subList(Math.min(1, live.size()), live.size())) {
                Terminal.printf("              %s%n", line);
            }
            if (!live.isEmpty()) {
                Terminal.printf("              %,d tracked objects, budget %,d, keep-probability %.4g%n", h.getTrackedObjects(),
                        h.getLiveBudget(), h.getKeepProbability());
            }
        } catch (IllegalStateException tooBig) {
            // Summarising the profile would take more of the target's heap than heaptap's budget: say so, go on.
            Terminal.printf("samples:      %,d%n", samples);
            Terminal.printf("profile:      %s%n", tooBig.getMessage());
        }
        List<String> gc = h.getGcReport();
        Terminal.printf("gc:           %s%n", gc.isEmpty() ? "-" : gc.get(0));
        for (String line : gc.subList(Math.min(1, gc.size()), gc.size())) {
            Terminal.printf("              %s%n", line);
        }
        Terminal.printf("native mem:   %s%n", HumanUnits.formatBytes(h.getNativeMemoryBytes()));
        Terminal.printf("heap budget:  %s of this JVM's heap at most, for any one request%n", HumanUnits.formatBytes(h.getHeapBudgetBytes()));
        Terminal.printf("weak refs:    %,d%n", h.getWeakRefs());
        Terminal.printf("dump folder:  %s%n", h.getDumpDirectory());
        Terminal.printf("http:         %s%n", h.getHttpUrl().isEmpty() ? "not serving" : h.getHttpUrl());
        Terminal.printf("agent:        heaptap %s%s%n", h.getAgentVersion(),
                h.getNativeAgentError().isEmpty() ? "" : " (native agent unavailable: " + h.getNativeAgentError() + ")");
        return ExitCode.OK;
    }
}
