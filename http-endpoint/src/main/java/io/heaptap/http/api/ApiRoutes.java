package io.heaptap.http.api;

import io.heaptap.http.route.Handler;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.JsonBody;
import io.heaptap.http.route.QueryParams;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.census.CensusFormat;
import io.heaptap.profile.format.FlameGraphAssets;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.profile.leak.LeakJson;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.session.SessionState;
import io.heaptap.session.StatusReport;
import io.heaptap.wire.options.BadOptionException;
import io.heaptap.wire.options.CaptureKeys;
import io.heaptap.wire.options.GivenOptions;
import io.heaptap.wire.options.LeakWatchKeys;
import io.heaptap.wire.options.OptionKey;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The REST API under {@code /api}: JSON in (query string or a JSON body), JSON out. Thin: every
 * route is one call on the {@link Controller}.
 */
public final class ApiRoutes {
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
    private static final int MAX_ROWS = 1000;

    private final Controller controller;
    private final String version;
    private final HttpServing http;

    public ApiRoutes(Controller controller, String version, HttpServing http) {
        this.controller = controller;
        this.version = version;
        this.http = http;
    }

    public void addTo(Router router) {
        router.get("/api/status", Handler.now(this::status))
                .post("/api/start", Handler.now(this::start))
                .post("/api/stop", Handler.now(this::stop))
                .post("/api/reset", Handler.now(this::reset))
                .get("/api/dump", Handler.now(this::dump))
                .get("/api/top", Handler.now(this::top))
                .get("/api/flamegraph", Handler.now(this::flameGraph))
                .get("/api/leaks", Handler.now(this::leaks))
                .post("/api/leaks/start", Handler.now(this::startLeakWatch))
                .post("/api/leaks/stop", Handler.now(this::stopLeakWatch))
                .post("/api/census", Handler.now(this::census));
    }

    private Response status(Request request) {
        request.params().allowOnly();
        return statusResponse();
    }

    private Response statusResponse() {
        return Response.json(200, StatusJson.of(controller.statusReport(new StatusReport.Door(version, http))));
    }

    private Response start(Request request) {
        CaptureOptions options = startOptions(JsonBody.params(request));
        controller.start(options, "http " + request.client());
        return statusResponse();
    }

    /** The options of {@code POST /api/start}: every name {@link CaptureKeys} accepts, and only those. */
    public static CaptureOptions startOptions(QueryParams p) {
        return keyed(p, CaptureKeys.ALL, CaptureKeys::parse);
    }

    /** The options of {@code POST /api/leaks/start}: every name {@link LeakWatchKeys} accepts, and only those. */
    public static LeakWatchOptions leakWatchOptions(QueryParams p) {
        return keyed(p, LeakWatchKeys.ALL, LeakWatchKeys::parse);
    }

    /** The parameters as {@code parse} reads them; a refusal is a 400 that names the parameter at fault. */
    private static <T> T keyed(QueryParams p, List<OptionKey> keys, Function<Map<String, String>, T> parse) {
        List<String> names = GivenOptions.acceptedNames(keys);
        p.allowOnly(names.toArray(String[]::new));
        Map<String, String> given = new LinkedHashMap<>();
        names.forEach(name -> given.put(name, p.text(name)));
        try {
            return parse.apply(given);
        } catch (BadOptionException e) {
            throw new HttpError(400, e.getMessage(), e.name(), Map.of());
        } catch (IllegalArgumentException e) {
            throw new HttpError(400, e.getMessage());
        }
    }

    private Response stop(Request request) {
        JsonBody.params(request).allowOnly();
        controller.stop();
        return statusResponse();
    }

    private Response reset(Request request) {
        JsonBody.params(request).allowOnly();
        controller.reset();
        return statusResponse();
    }

    private Response dump(Request request) {
        QueryParams p = request.params().allowOnly("format", "minAge", "minGcs", "gc");
        ProfileFormat format = p.parsed("format", ProfileFormat::parse, ProfileFormat.PPROF);
        LiveFilter filter = liveFilter(p);
        boolean gc = p.bool("gc", false);
        if (gc) {
            request.requireUnforgeable("gc=true (a full collection, which pauses the application)");
        }
        byte[] body = controller.dump(format, filter, gc);
        String file = "heaptap-" + ProcessHandle.current().pid() + "-" + LocalDateTime.now().format(FILE_TIME) + format.extension();
        // A browser shows the HTML page; everything else downloads under a sensible name.
        String disposition = (format == ProfileFormat.HTML ? "inline" : "attachment") + "; filename=\"" + file + "\"";
        return Response.ok(format.contentType(), body).withHeader("Content-Disposition", disposition);
    }

    private Response top(Request request) {
        QueryParams p = request.params().allowOnly("kind", "n");
        String kind = p.text("kind", "alloc");
        if (!kind.equals("alloc") && !kind.equals("live")) {
            throw HttpError.badParameter("kind", "'" + kind + "' is neither alloc nor live");
        }
        int n = p.integer("n", 20, 1, MAX_ROWS);
        String state = controller.status().state().name().toLowerCase(Locale.ROOT);
        return Response.json(200, controller.peekProfile(profile -> TopJson.of(profile, kind, n, state)));
    }

    private Response flameGraph(Request request) {
        QueryParams p = request.params().allowOnly("minAge", "minGcs");
        LiveFilter filter = liveFilter(p);
        if (controller.status().state() == SessionState.IDLE) {
            throw new HttpError(409, "nothing to show: no capture has run since the agent was loaded or reset");
        }
        // The page's flame graph data: its trees cost what an HTML dump's do, within heaptap's heap budget.
        return Response.json(200, controller.withProfile(filter, false, ProfileFormat.HTML, FlameGraphAssets::data));
    }

    private Response leaks(Request request) {
        QueryParams p = request.params().allowOnly("n", "format");
        int n = p.integer("n", LeakFormat.REPORT_ROWS, 1, MAX_ROWS);
        LeakFormat format = p.parsed("format", LeakFormat::parse, LeakFormat.JSON);
        LeakReport report = controller.leakReport();
        if (report == null) {
            if (format != LeakFormat.JSON) {
                throw new HttpError(409, "no leak watch has run since the agent was loaded or reset: POST /api/leaks/start");
            }
            return Response.json(200, "{\"version\":" + LeakJson.VERSION + ",\"watch\":{\"state\":\"idle\"},\"sites\":[]}");
        }
        return Response.ok(format.contentType(), format.render(report, n));
    }

    private Response startLeakWatch(Request request) {
        LeakWatchOptions options = leakWatchOptions(JsonBody.params(request));
        controller.startLeakWatch(options, "http " + request.client());
        return Response.ok(LeakFormat.JSON.contentType(), LeakFormat.JSON.render(controller.leakReport()));
    }

    private Response stopLeakWatch(Request request) {
        JsonBody.params(request).allowOnly();
        controller.stopLeakWatch();
        LeakReport report = controller.leakReport();
        if (report == null) {
            throw new HttpError(409, "no leak watch has run since the agent was loaded or reset: POST /api/leaks/start");
        }
        return Response.ok(LeakFormat.JSON.contentType(), LeakFormat.JSON.render(report));
    }

    /** POST: it pauses the application twice (a forced collection, then the census), so no link or prefetch runs it. */
    private Response census(Request request) {
        QueryParams p = JsonBody.params(request).allowOnly("n", "format");
        int n = p.integer("n", CensusFormat.DEFAULT_CLASSES, 1, Controller.MAX_CENSUS_CLASSES);
        CensusFormat format = p.parsed("format", CensusFormat::parse, CensusFormat.JSON);
        return Response.ok(format.contentType(), format.render(controller.classCensus(n), ProcessHandle.current().pid())
                .getBytes(StandardCharsets.UTF_8));
    }

    private static LiveFilter liveFilter(QueryParams p) {
        int minGcs = p.integer("minGcs", 0, 0, Integer.MAX_VALUE);
        return p.parsed("minAge", age -> CaptureOptions.parseFilter(age, minGcs), new LiveFilter(Duration.ZERO, minGcs));
    }
}
