package io.heaptap.http.route;

import org.jolokia.json.parser.JSONParser;
import org.jolokia.json.parser.ParseException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request's parameters from its query string and, for a JSON body (a flat object such as
 * {@code {"duration":"30s","live":true}}), from the body too: scripts may send either. The same
 * name in both is refused. The JSON parser is Jolokia's, already on board for {@code /jolokia}.
 */
public final class JsonBody {
    private JsonBody() {
    }

    public static QueryParams params(Request request) {
        Map<String, List<String>> merged = new LinkedHashMap<>(request.query());
        if (request.body().length == 0) {
            return new QueryParams(merged);
        }
        String type = request.header("content-type");
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new HttpError(400, "a request body must be JSON (Content-Type: application/json), or send the parameters"
                    + " in the query string");
        }
        Object parsed;
        try {
            parsed = new JSONParser().parse(new String(request.body(), StandardCharsets.UTF_8));
        } catch (ParseException | IOException | RuntimeException e) {
            throw new HttpError(400, "the body is not valid JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> object)) {
            throw new HttpError(400, "the body must be a JSON object such as {\"duration\":\"30s\"}");
        }
        for (Map.Entry<?, ?> e : object.entrySet()) {
            String name = String.valueOf(e.getKey());
            Object value = e.getValue();
            if (value instanceof Map || value instanceof List) {
                throw HttpError.badParameter(name, "must be a string, number or boolean");
            }
            if (merged.containsKey(name)) {
                throw HttpError.badParameter(name, "given in both the query string and the body");
            }
            List<String> one = new ArrayList<>(1);
            one.add(value == null ? null : String.valueOf(value));
            merged.put(name, one);
        }
        return new QueryParams(merged);
    }
}
