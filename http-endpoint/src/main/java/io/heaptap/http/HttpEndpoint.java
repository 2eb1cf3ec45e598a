package io.heaptap.http;

import io.heaptap.http.api.ApiRoutes;
import io.heaptap.http.jolokia.JolokiaRoute;
import io.heaptap.http.pprof.PprofRoutes;
import io.heaptap.http.route.Router;
import io.heaptap.http.server.RunningServer;
import io.heaptap.http.web.WebPageRoutes;
import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;
import io.heaptap.session.ServeOptions;

import java.util.Optional;

import javax.management.ObjectName;

/**
 * heaptap's HTTP endpoint in a target JVM: started only when asked (CLI {@code serve}, the
 * MXBean, or {@code -javaagent:heaptap.jar=serve}), at most one server per JVM. Its routes are
 * thin adapters over the {@link Controller}, the one owner of session state.
 */
public final class HttpEndpoint implements HttpServing {
    /**
     * Where the endpoint serves, published as a system property while it does: the CLI reads it
     * over the Attach API when JMX is not available to ask.
     */
    public static final String URL_PROPERTY = "heaptap.http.url";

    private final Controller controller;
    private final String version;
    private final ObjectName mbean;

    private RunningServer server;
    private JolokiaRoute jolokia;

    public HttpEndpoint(Controller controller, String version, ObjectName mbean) {
        this.controller = controller;
        this.version = version;
        this.mbean = mbean;
    }

    @Override
    public synchronized Serving start(ServeOptions options) {
        if (server != null) {
            return new Serving(server.url(), true);
        }
        RunningServer.Threads threads = RunningServer.Threads.create();
        Router router = new Router();
        new ApiRoutes(controller, version, () -> url().orElse(null)).addTo(router);
        new PprofRoutes(controller, threads.timer(), threads.workers()).addTo(router);
        JolokiaRoute jolokiaRoute = new JolokiaRoute(mbean, options.allowOrigin());
        jolokiaRoute.addTo(router);
        new WebPageRoutes().addTo(router);
        server = RunningServer.start(options, router, threads);
        jolokia = jolokiaRoute;
        System.setProperty(URL_PROPERTY, server.url());
        return new Serving(server.url(), false);
    }

    @Override
    public synchronized boolean stop() {
        if (server == null) {
            return false;
        }
        System.clearProperty(URL_PROPERTY);
        server.close();
        jolokia.stop();
        server = null;
        jolokia = null;
        return true;
    }

    @Override
    public synchronized Optional<String> url() {
        return server == null ? Optional.empty() : Optional.of(server.url());
    }
}
