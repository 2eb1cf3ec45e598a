package io.heaptap.http.jolokia;

import io.heaptap.http.route.Handler;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.session.HeapBudget;
import io.heaptap.session.HeapBudgetException;

import org.jolokia.server.core.config.ConfigKey;
import org.jolokia.server.core.config.StaticConfiguration;
import org.jolokia.server.core.config.SystemPropertyMode;
import org.jolokia.server.core.request.BadRequestException;
import org.jolokia.server.core.request.EmptyResponseException;
import org.jolokia.server.core.service.JolokiaServiceManagerFactory;
import org.jolokia.server.core.service.api.JolokiaServiceManager;
import org.jolokia.server.core.service.api.LogHandler;
import org.jolokia.service.jmx.LocalRequestHandler;
import org.jolokia.service.serializer.JolokiaSerializer;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import javax.management.ObjectName;

/**
 * The Jolokia 2 protocol at {@code /jolokia}: GET and POST, bulk requests, read / write / exec /
 * list / search / version, answered by Jolokia's own request handler inside heaptap's pipeline
 * (not the Jolokia JVM agent and its separate HTTP server).
 *
 * <p>Jolokia's configuration is fixed here: the target's {@code jolokia.*} system properties and
 * {@code JOLOKIA_*} environment are ignored ({@link SystemPropertyMode#NEVER}), services are added
 * explicitly rather than discovered on a class path the application may share, no server detectors
 * run, nothing is logged, and stack traces never leave the JVM. What it exposes is an allow-list
 * ({@link HeaptapRestrictor}); what one request may cost is bounded ({@link BoundedRequestHandler}).
 */
public final class JolokiaRoute {
    private static final String CONTEXT = "/jolokia";

    private final ObjectName heaptap;
    private final HeapBudget budget;
    private JolokiaServiceManager services;
    private BoundedRequestHandler handler;
    private boolean stopped;

    public JolokiaRoute(ObjectName heaptap, HeapBudget budget) {
        this.heaptap = heaptap;
        this.budget = budget;
    }

    public void addTo(Router router) {
        router.get(CONTEXT + "/", Handler.now(this::get)).post(CONTEXT + "/", Handler.now(this::post));
    }

    /** Jolokia starts with the first request, not with the server: most users never call it. */
    private synchronized BoundedRequestHandler handler() {
        if (stopped) {  // a request still running when the server stopped: never a new, unstopped Jolokia
            throw new HttpError(503, "heaptap's HTTP endpoint stopped serving");
        }
        if (handler == null) {
            Map<String, String> config = new LinkedHashMap<>();
            config.put(ConfigKey.AGENT_ID.getKeyValue(), "heaptap-" + ProcessHandle.current().pid());
            config.put(ConfigKey.AGENT_CONTEXT.getKeyValue(), CONTEXT);
            config.put(ConfigKey.AGENT_DESCRIPTION.getKeyValue(), "heaptap");
            config.put(ConfigKey.DISCOVERY_ENABLED.getKeyValue(), "false");
            config.put(ConfigKey.INCLUDE_STACKTRACE.getKeyValue(), "false");
            config.put(ConfigKey.SERIALIZE_EXCEPTION.getKeyValue(), "false");
            config.put(ConfigKey.DEBUG.getKeyValue(), "false");
            JolokiaLimits limits = JolokiaLimits.forBudget(budget.bytes());
            limits.config().forEach((key, limit) -> config.put(key.getKeyValue(), limit.toString()));
            HeaptapRestrictor restrictor = new HeaptapRestrictor(heaptap);
            services = JolokiaServiceManagerFactory.createJolokiaServiceManager(
                    new StaticConfiguration(config, null, SystemPropertyMode.NEVER), new Silent(), restrictor, log -> new TreeSet<>());
            services.addService(new LocalRequestHandler(1000));
            services.addService(new JolokiaSerializer());
            handler = new BoundedRequestHandler(services.start(), restrictor, limits, budget);
        }
        return handler;
    }

    public synchronized void stop() {
        stopped = true;
        if (services != null) {
            services.stop();
            services = null;
            handler = null;
        }
    }

    private Response get(Request request) {
        return answer(() -> handler().get(pathInfo(request), parameters(request)));
    }

    private Response post(Request request) {
        Charset charset = BoundedRequestHandler.charset(request.header("content-type"));
        return answer(() -> handler().post(request.body(), charset, parameters(request)));
    }

    private interface Call {
        byte[] run() throws Exception;
    }

    private Response answer(Call call) {
        byte[] json;
        try {
            json = call.run();
        } catch (HttpError | HeapBudgetException e) {
            throw e;  // answered by the server as a JSON error: 4xx, or 503 with the reason
        } catch (BadRequestException e) {
            return text(400, "400 (Bad Request)\n\n" + e.getMessage() + "\n");
        } catch (SecurityException e) {
            return text(403, "403 (Forbidden)\n\n" + e.getMessage() + "\n");
        } catch (EmptyResponseException e) {
            return new Response(200, "text/plain", new byte[0], Map.of());
        } catch (Exception e) {
            json = handler().handleThrowable(e).toJSONString().getBytes(StandardCharsets.UTF_8);
        }
        return new Response(200, Response.JSON, json, Map.of());
    }

    private static Response text(int status, String body) {
        return new Response(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    private static String pathInfo(Request request) {
        String p = request.path().substring(Math.min(CONTEXT.length(), request.path().length()));
        return p.isEmpty() ? "/" : p;
    }

    private static Map<String, String[]> parameters(Request request) {
        Map<String, String[]> params = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : request.query().entrySet()) {
            params.put(e.getKey(), e.getValue().toArray(String[]::new));
        }
        return params;
    }

    /** Jolokia must not write into the target's logs or console. */
    private static final class Silent implements LogHandler {
        @Override
        public void debug(String message) {
        }

        @Override
        public void info(String message) {
        }

        @Override
        public void error(String message, Throwable t) {
        }

        @Override
        public boolean isDebug() {
            return false;
        }
    }
}
