package io.heaptap.http;

import io.heaptap.http.api.ApiRoutes;
import io.heaptap.http.jolokia.JolokiaRoute;
import io.heaptap.http.pprof.PprofRoutes;
import io.heaptap.http.route.Router;
import io.heaptap.http.server.RunningServer;
import io.heaptap.http.web.WebPageRoutes;
import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;
import io.heaptap.wire.options.ServeOptions;

import java.io.IOException;
import java.nio.file.Files;
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
    /**
     * The owner-only file holding the token heaptap made, published (the path, never the token) while
     * it serves with one: the CLI reads it over the Attach API, as the same user or root.
     */
    public static final String TOKEN_FILE_PROPERTY = "heaptap.http.tokenFile";

    private final Controller controller;
    private final String version;
    private final ObjectName mbean;

    private RunningServer server;
    private JolokiaRoute jolokia;
    private TokenFile.Generated tokenFile;

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
        String token = options.token();
        TokenFile.Generated generated = null;
        if (token == null) {
            generated = TokenFile.generate(controller.dumpDirectory());
            token = generated.token();
        }
        RunningServer.Threads threads = RunningServer.Threads.create();
        Router router = new Router();
        new ApiRoutes(controller, version, this).addTo(router);
        new PprofRoutes(controller, threads.timer(), threads.workers()).addTo(router);
        JolokiaRoute jolokiaRoute = new JolokiaRoute(mbean, controller.heapBudget());
        jolokiaRoute.addTo(router);
        new WebPageRoutes().addTo(router);
        try {
            server = RunningServer.start(options, token, router, threads, controller.heapBudget());
        } catch (IllegalStateException e) {
            deleteQuietly(generated);
            throw e;
        }
        jolokia = jolokiaRoute;
        tokenFile = generated;
        System.setProperty(URL_PROPERTY, server.url());
        if (generated != null) {
            System.setProperty(TOKEN_FILE_PROPERTY, generated.file().toString());
        }
        return new Serving(server.url(), false);
    }

    @Override
    public synchronized boolean stop() {
        if (server == null) {
            return false;
        }
        System.clearProperty(URL_PROPERTY);
        System.clearProperty(TOKEN_FILE_PROPERTY);
        // Jolokia stops after its last request: the one asking to stop may be its own (exec of stopServing).
        server.close(jolokia::stop);
        deleteQuietly(tokenFile);
        server = null;
        jolokia = null;
        tokenFile = null;
        return true;
    }

    @Override
    public synchronized Optional<String> tokenFile() {
        return tokenFile == null ? Optional.empty() : Optional.of(tokenFile.file().toString());
    }

    private static void deleteQuietly(TokenFile.Generated generated) {
        if (generated != null) {
            try {
                Files.deleteIfExists(generated.file());
            } catch (IOException ignored) {
                // a token of a server that no longer runs opens nothing
            }
        }
    }

    @Override
    public synchronized Optional<String> url() {
        return server == null ? Optional.empty() : Optional.of(server.url());
    }
}
