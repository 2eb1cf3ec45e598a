package io.heaptap.http.web;

import io.heaptap.http.route.Handler;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.profile.format.FlameGraphAssets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The web page at {@code /} and its assets. Everything is served from heaptap.jar (d3 from its
 * WebJar, the same flame graph renderer as the HTML dump), so the page works offline. The
 * Content-Security-Policy allows scripts and styles from this server only.
 */
public final class WebPageRoutes {
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
    private static final String JS = "text/javascript; charset=utf-8";

    private final Map<String, Response> assets;

    public WebPageRoutes() {
        this.assets = Map.of(
                "/", page("text/html; charset=utf-8", resource("index.html")),
                "/assets/app.js", page(JS, resource("app.js")),
                "/assets/app.css", page("text/css; charset=utf-8", resource("app.css")),
                "/assets/d3.js", page(JS, FlameGraphAssets.d3()),
                "/assets/flamegraph.js", page(JS, FlameGraphAssets.renderer()));
    }

    public void addTo(Router router) {
        Handler serve = Handler.now(this::serve);
        router.get("/", serve).get("/assets/", serve);
    }

    private Response serve(Request request) {
        request.params().allowOnly();
        Response r = assets.get(request.path());
        if (r == null) {
            throw new HttpError(404, "no asset " + request.path());
        }
        return r;
    }

    private static Response page(String type, String text) {
        // Made once and kept: a slow client of one holds no heap of its own.
        return Response.ok(type, text.getBytes(StandardCharsets.UTF_8)).withHeader("Content-Security-Policy", CSP).shared();
    }

    private static String resource(String name) {
        try (InputStream in = WebPageRoutes.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("heaptap.jar is incomplete: web page resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
