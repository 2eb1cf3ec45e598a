package io.heaptap.http.pprof;

import io.heaptap.http.route.Handler;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.QueryParams;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.ProfileDelta;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.session.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.SessionState;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Go's {@code /debug/pprof/allocs} and {@code /debug/pprof/heap}, so Pyroscope, Grafana Alloy
 * and Parca scrape a JVM as they scrape a Go service: gzipped profile.proto with Go's four heap
 * sample types; {@code allocs} shows allocated space by default, {@code heap} in-use space.
 *
 * <p>Without {@code seconds}: the current or last capture. With {@code seconds=N}: what was
 * allocated during the next N seconds (the delta of a running capture, or a capture of exactly N
 * seconds started for the purpose), and the live set at the end. {@code heap?gc=1} collects first.
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
                """;
        return Response.ok("text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    private CompletableFuture<Response> profile(Request request, boolean heap) {
        QueryParams p = heap ? request.params().allowOnly("seconds", "gc", "debug") : request.params().allowOnly("seconds", "debug");
        int seconds = p.integer("seconds", 0, 1, MAX_SECONDS);
        boolean gc = heap && p.bool("gc", false);
        boolean text = p.integer("debug", 0, 0, 2) > 0;
        String name = heap ? "heap" : "allocs";
        if (seconds == 0) {
            return CompletableFuture.completedFuture(encodeWithinBudget(gc, heap, text, name));
        }
        if (controller.status().state() == SessionState.RECORDING) {
            AllocationProfile before = controller.profile(LiveFilter.NONE, false);
            return later(seconds, () -> {
                AllocationProfile after = controller.profile(LiveFilter.NONE, gc);
                if (!after.info().startedAt().equals(before.info().startedAt())) {
                    throw new HttpError(409, "the capture was replaced during the " + seconds + " s window; retry");
                }
                return encode(ProfileDelta.between(before, after), heap, text, name);
            });
        }
        CaptureOptions options = new CaptureOptions(Duration.ofSeconds(seconds), CaptureOptions.DEFAULT_INTERVAL,
                CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS, true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        controller.start(options, "pprof scrape from " + request.client());
        return later(seconds, () -> encodeWithinBudget(gc, heap, text, name));
    }

    /** Answers after the window without holding a worker thread while waiting. */
    private CompletableFuture<Response> later(int seconds, Supplier<Response> work) {
        CompletableFuture<Response> result = new CompletableFuture<>();
        Runnable answer = () -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        };
        timer.schedule(() -> {
            try {
                workers.execute(answer);
            } catch (RejectedExecutionException busy) {
                result.completeExceptionally(busy);
            }
        }, seconds, TimeUnit.SECONDS);
        return result;
    }

    /** Decoding and encoding within heaptap's heap budget (HTTP 503 with the reason when too big). */
    private Response encodeWithinBudget(boolean gc, boolean heap, boolean text, String name) {
        return controller.withProfile(LiveFilter.NONE, gc, text ? ProfileFormat.TEXT : ProfileFormat.PPROF,
                profile -> encode(profile, heap, text, name));
    }

    private static Response encode(AllocationProfile profile, boolean heap, boolean text, String name) {
        if (text) {
            return Response.ok(ProfileFormat.TEXT.contentType(), ProfileWriter.toBytes(profile, ProfileFormat.TEXT));
        }
        byte[] body = heap ? ProfileWriter.goHeapProfile(profile) : ProfileWriter.toBytes(profile, ProfileFormat.PPROF);
        return Response.ok("application/octet-stream", body).withHeader("Content-Disposition", "attachment; filename=\"" + name + "\"");
    }
}
