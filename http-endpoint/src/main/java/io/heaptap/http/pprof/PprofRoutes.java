package io.heaptap.http.pprof;

import io.heaptap.http.route.Handler;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.QueryParams;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.DeltaBaseline;
import io.heaptap.session.SessionState;
import io.heaptap.session.ScrapeLabels;
import io.heaptap.session.SessionStatus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Go's {@code /debug/pprof/allocs} and {@code /debug/pprof/heap}, so Pyroscope, Grafana Alloy
 * and Parca scrape a JVM as they scrape a Go service: gzipped profile.proto with Go's four heap
 * sample types; {@code allocs} shows allocated space by default, {@code heap} in-use space.
 *
 * <p>While continuous sampling runs ({@code serve --continuous}), both answer as a Go service does:
 * without {@code seconds}, everything counted since continuous sampling began (never reset, per
 * stack non-decreasing, stamped now), so Alloy and Parca can subtract successive scrapes; with
 * {@code seconds=N}, the difference over the next N seconds. Captures started meanwhile are windows
 * over the same sampler and change neither. Every sample is labelled with the service, host, pid
 * and heaptap's version ({@link ScrapeLabels}).
 *
 * <p>Otherwise, without {@code seconds}: the current or last capture (409, saying how to turn on
 * continuous sampling, when there is none). With {@code seconds=N}: what was
 * allocated during the next N seconds (the delta of a running capture, or a capture of exactly N
 * seconds started for the purpose), and the live set at the end. {@code heap?gc=1} collects first.
 * Starting a capture and forcing a collection through a GET need a bearer token (scrapers send one);
 * a browser's saved password is not enough, since any page can make the browser send it.
 */
public final class PprofRoutes {
    public static final int MAX_SECONDS = 3600;

    private final Controller controller;
    private final ScheduledExecutorService timer;
    private final Executor workers;

    public PprofRoutes(Controller controller, ScheduledExecutorService timer, Executor workers) {
        this.controller = controller;
        this.timer = timer;
        this.workers = workers;
    }

    public void addTo(Router router) {
        router.get("/debug/pprof/allocs", request -> profile(request, false))
                .get("/debug/pprof/heap", request -> profile(request, true))
                .get("/debug/pprof/", Handler.now(this::index));
    }

    private Response index(Request request) {
        if (!request.path().equals("/debug/pprof/") && !request.path().equals("/debug/pprof")) {
            throw new HttpError(404, "no profile " + request.path() + ": heaptap serves /debug/pprof/allocs and /debug/pprof/heap");
        }
        String text = """
                heaptap serves the JVM's allocation profiles as a Go service does:
                  /debug/pprof/allocs   allocations (alloc_objects, alloc_space) and live objects (inuse_objects, inuse_space)
                  /debug/pprof/heap     the same, in-use space shown by default; ?gc=1 collects first
                ?seconds=N returns what was allocated during the next N seconds.
                With continuous sampling on (heaptap serve --continuous), both count everything since it began,
                as a Go service does, for Pyroscope (Alloy) and Parca.
                """;
        return Response.ok("text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    private CompletableFuture<Response> profile(Request request, boolean heap) {
        QueryParams p = heap ? request.params().allowOnly("seconds", "gc", "debug") : request.params().allowOnly("seconds", "debug");
        int seconds = p.integer("seconds", 0, 1, MAX_SECONDS);
        boolean gc = heap && p.bool("gc", false);
        boolean text = p.integer("debug", 0, 0, 2) > 0;
        String name = heap ? "heap" : "allocs";
        if (gc) {
            request.requireUnforgeable("?gc=1 (a full collection, which pauses the application)");
        }
        ScrapeLabels labels = controller.scrapeLabels();
        if (labels != null) {
            return continuous(labels, seconds, gc, heap, text, name);
        }
        if (seconds == 0) {
            if (controller.status().state() == SessionState.IDLE) {
                throw new HttpError(409, "nothing to serve: continuous sampling is off and no capture has run; for scrapers"
                        + " (Pyroscope, Parca) serve with 'heaptap serve --continuous PID' or -javaagent:heaptap.jar=serve,continuous,"
                        + " or ask for ?seconds=N");
            }
            return CompletableFuture.completedFuture(encodeWithinBudget(gc, heap, text, name));
        }
        SessionStatus running = controller.status();
        if (running.state() == SessionState.RECORDING) {
            // The delta of the running capture; a window it would not cover is refused, never silently shortened.
            if (running.timeLeftMillis() < seconds * 1000L) {
                long left = (running.timeLeftMillis() + 999) / 1000;
                throw new HttpError(409, "a capture started by " + running.startedBy() + " is running and ends in " + left
                        + " s, before the " + seconds + " s window asked for; retry after it ends, or ask for ?seconds=" + left
                        + " or less", null, Map.of("Retry-After", Long.toString(Math.max(1, left))));
            }
            DeltaBaseline since = controller.deltaBaseline(false, format(text));
            return LaterAnswer.after(timer, workers, seconds, () -> controller.withDeltaProfile(since, gc, format(text),
                    profile -> encode(profile, heap, text, name)), () -> { }, since.whenClosed(), since::close);
        }
        request.requireUnforgeable("?seconds=N on an idle JVM (it starts a capture)");
        // The default sample-rate target: a scraper that never stops pays a bounded cost whatever the allocation rate.
        CaptureOptions options = CaptureOptions.defaultSampling(Duration.ofSeconds(seconds), CaptureOptions.DEFAULT_DEPTH,
                CaptureOptions.DEFAULT_MAX_STACKS, true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        Instant startedAt = controller.start(options, "pprof scrape from " + request.client());
        // A scraper that goes away takes its window with it: the capture stops instead of blocking others.
        return LaterAnswer.after(timer, workers, seconds, () -> controller.withScrapedCaptureProfile(startedAt, gc, format(text),
                profile -> encode(profile, heap, text, name)),
                () -> controller.stopIfStartedAt(startedAt, "stopped: the scrape's client went away"), null, () -> { });
    }

    /**
     * Continuous sampling's cumulative profile, or its difference over the next {@code seconds}: the
     * start's counters are kept as a compact baseline under heaptap's heap budget for the whole wait,
     * and the end is decoded, subtracted and encoded under one reservation (503 when either does not fit).
     */
    private CompletableFuture<Response> continuous(ScrapeLabels labels, int seconds, boolean gc, boolean heap, boolean text,
                                                   String name) {
        if (seconds == 0) {
            return CompletableFuture.completedFuture(controller.withContinuousProfile(LiveFilter.NONE, gc, format(text),
                    profile -> encodeScrape(profile, labels, heap, text, name)));
        }
        DeltaBaseline since = controller.deltaBaseline(true, format(text));
        return LaterAnswer.after(timer, workers, seconds, () -> controller.withDeltaProfile(since, gc, format(text),
                profile -> encodeScrape(profile, labels, heap, text, name)), () -> { }, since.whenClosed(), since::close);
    }

    private static ProfileFormat format(boolean text) {
        return text ? ProfileFormat.TEXT : ProfileFormat.PPROF;
    }

    private static Response encodeScrape(AllocationProfile profile, ScrapeLabels labels, boolean heap, boolean text, String name) {
        if (text) {
            return Response.ok(ProfileFormat.TEXT.contentType(), ProfileWriter.toBytes(profile, ProfileFormat.TEXT));
        }
        return Response.ok("application/octet-stream", ProfileWriter.scrapeProfile(profile, heap, labels.asMap()))
                .withHeader("Content-Disposition", "attachment; filename=\"" + name + "\"");
    }

    /** Decoding and encoding within heaptap's heap budget (HTTP 503 with the reason when too big). */
    private Response encodeWithinBudget(boolean gc, boolean heap, boolean text, String name) {
        return controller.withProfile(LiveFilter.NONE, gc, format(text), profile -> encode(profile, heap, text, name));
    }

    private static Response encode(AllocationProfile profile, boolean heap, boolean text, String name) {
        if (text) {
            return Response.ok(ProfileFormat.TEXT.contentType(), ProfileWriter.toBytes(profile, ProfileFormat.TEXT));
        }
        byte[] body = heap ? ProfileWriter.goHeapProfile(profile) : ProfileWriter.toBytes(profile, ProfileFormat.PPROF);
        return Response.ok("application/octet-stream", body).withHeader("Content-Disposition", "attachment; filename=\"" + name + "\"");
    }
}
