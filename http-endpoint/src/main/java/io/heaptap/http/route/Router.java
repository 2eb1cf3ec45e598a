package io.heaptap.http.route;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Paths to handlers. A path is exact ({@code /api/status}) or a prefix ending in a slash
 * ({@code /jolokia/}, which also takes {@code /jolokia}). An unknown path is 404, a known path
 * with the wrong method 405 with the methods it allows in the Allow header.
 */
public final class Router {
    private final List<Entry> entries = new ArrayList<>();

    private record Entry(String path, boolean prefix, Map<String, Handler> byMethod) {
        boolean matches(String p) {
            return prefix ? p.startsWith(path) || p.equals(path.substring(0, path.length() - 1)) : p.equals(path);
        }
    }

    public Router get(String path, Handler handler) {
        return add("GET", path, handler);
    }

    public Router post(String path, Handler handler) {
        return add("POST", path, handler);
    }

    public Router add(String method, String path, Handler handler) {
        for (Entry e : entries) {
            if (e.path.equals(path)) {
                e.byMethod.put(method, handler);
                return this;
            }
        }
        Map<String, Handler> byMethod = new LinkedHashMap<>();
        byMethod.put(method, handler);
        entries.add(new Entry(path, path.endsWith("/") && path.length() > 1, byMethod));
        return this;
    }

    /** The handler for a request, or an {@link HttpError} 404 / 405. */
    public Handler route(String method, String path) {
        for (Entry e : entries) {
            if (e.matches(path)) {
                Handler h = e.byMethod.get(method);
                if (h == null) {
                    String allowed = String.join(", ", new TreeSet<>(e.byMethod.keySet()));
                    throw new HttpError(405, method + " is not allowed on " + path + " (allowed: " + allowed + ")", null,
                            Map.of("Allow", allowed));
                }
                return h;
            }
        }
        throw new HttpError(404, "no route " + path + " (see GET / for the web page, /api/status, /debug/pprof/, /jolokia/)");
    }
}
