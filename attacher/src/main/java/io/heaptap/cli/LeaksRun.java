package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachException;
import io.heaptap.attach.TargetFailures;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.LeakRow;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.profile.format.TerminalText;
import io.heaptap.profile.leak.Verdict;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.PathOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.PrintStream;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One leak watch from the CLI: start it in the target, redraw the ranking as snapshots come in,
 * then write the report. The report of every new snapshot is fetched and kept here, so a target
 * that exits mid-watch still leaves the ranking as of its last snapshot.
 */
final class LeaksRun {
    private static final long POLL_MILLIS = 200;
    private static final long REDRAW_MILLIS = 1000;
    private static final int MAX_PATH_SITES = 3;

    private LeaksRun() {
    }

    static ExitCode run(AgentConnection connection, LeakWatchOptions options, LeakFormat format, Output output, String client,
                        boolean paths)
            throws IOException {
        HeaptapMXBean heaptap = connection.heaptap();
        Interruption interruption = new Interruption().install();
        LeakTable table = new LeakTable();
        byte[] report = null;
        try {
            heaptap.startLeakWatch(options.duration().toMillis() + "ms", options.every().toMillis() + "ms",
                    Long.toString(options.intervalBytes()), options.gc(), client);
            long started = System.nanoTime();
            int seen = 0;
            long drawn = 0;
            List<LeakRow> rows = List.of();
            boolean interrupted = false;
            while (true) {
                String state = heaptap.getLeakWatchState();
                int snapshots = heaptap.getLeakWatchSnapshots();
                if (snapshots != seen) {
                    seen = snapshots;
                    report = heaptap.leakReport(format.id()).getBytes(StandardCharsets.UTF_8);
                    rows = table.enabled() ? heaptap.leakRanking(LeakTable.ROWS) : rows;
                }
                if (!"watching".equals(state)) {
                    break;
                }
                long now = System.nanoTime();
                if (now - drawn >= REDRAW_MILLIS * 1_000_000) {
                    table.draw(status(connection, options, now - started, snapshots), rows);
                    drawn = now;
                }
                if (interruption.await(POLL_MILLIS)) {
                    interrupted = true;
                    break;
                }
            }
            if (interrupted) {
                heaptap.stopLeakWatch();
            }
            report = heaptap.leakReport(format.id()).getBytes(StandardCharsets.UTF_8);
            table.clear();
            write(report, format, output);
            if (paths && !interrupted) {
                // After a JSON or HTML report on stdout, the chains go to stderr so stdout stays one document.
                printPaths(heaptap, output.file() == null && format != LeakFormat.TEXT ? System.err : System.out);
            }
            return interrupted ? ExitCode.INTERRUPTED : ExitCode.OK;
        } catch (UndeclaredThrowableException e) {
            // A JMX call failed on the wire: the target exited or the connection broke.
            AttachException lost = TargetFailures.lostOrFailed(connection.target(), e.getCause());
            table.clear();
            if (report != null) {
                write(report, format, output);
                System.err.println("heaptap: the report is as of the last snapshot before the connection was lost");
            }
            throw lost;
        } finally {
            interruption.finish();
        }
    }

    /** How the top leak suspects are held: one bounded heap walk per suspect, the oldest objects first. */
    private static void printPaths(HeaptapMXBean heaptap, PrintStream to) {
        List<LeakRow> suspects = heaptap.leakRanking(MAX_PATH_SITES * 4).stream()
                .filter(r -> r.getVerdict().equals(Verdict.LEAK_SUSPECT.label()))
                .limit(MAX_PATH_SITES)
                .toList();
        if (suspects.isEmpty()) {
            to.println("no leak suspect: no reference chains to look for");
            return;
        }
        for (LeakRow suspect : suspects) {
            String at = suspect.getAllocatedAt();
            String method = at.contains("(") ? at.substring(0, at.indexOf('(')) : at;
            to.print(TerminalText.format(Locale.ROOT, "%nHow is it held? %s allocated at %s%n", suspect.getType(), at));
            PathOptions o = PathOptions.DEFAULT;
            for (String line : heaptap.referencePaths(method, o.maxPaths(), o.maxDepth(), o.maxObjects(),
                    o.timeLimit().toMillis() + "ms")) {
                to.println(TerminalText.escape(line));
            }
        }
    }

    private static String status(AgentConnection connection, LeakWatchOptions options, long elapsedNanos, int snapshots) {
        return String.format(Locale.ROOT, "watching pid %d for leaks: %s of %s, %d snapshot%s (one every %s); Ctrl-C stops and writes the report",
                connection.target().pid(), HumanUnits.formatDuration(Duration.ofNanos(elapsedNanos)),
                HumanUnits.formatDuration(options.duration()), snapshots, snapshots == 1 ? "" : "s",
                HumanUnits.formatDuration(options.every()));
    }

    private static void write(byte[] report, LeakFormat format, Output output) throws IOException {
        // A text report was made in the target: what reaches a terminal is escaped here too, whatever made it.
        byte[] shown = format == LeakFormat.TEXT
                ? TerminalText.escapeLines(new String(report, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8) : report;
        long bytes = output.write(shown);
        if (output.file() != null) {
            System.err.printf("heaptap: wrote %s (%s, %s)%n", output.file(), format.id(), HumanUnits.formatBytes(bytes));
        }
    }
}
