package io.heaptap.http.jolokia;

import io.heaptap.http.route.HttpError;
import io.heaptap.session.HeapBudget;

import org.jolokia.json.JSONArray;
import org.jolokia.json.JSONObject;
import org.jolokia.json.parser.JSONParser;
import org.jolokia.json.parser.ParseException;
import org.jolokia.server.core.config.ConfigKey;
import org.jolokia.server.core.http.HttpRequestHandler;
import org.jolokia.server.core.request.BadRequestException;
import org.jolokia.server.core.request.EmptyResponseException;
import org.jolokia.server.core.request.JolokiaObjectNameRequest;
import org.jolokia.server.core.request.JolokiaReadRequest;
import org.jolokia.server.core.request.JolokiaRequest;
import org.jolokia.server.core.request.JolokiaRequestFactory;
import org.jolokia.server.core.request.ProcessingParameters;
import org.jolokia.server.core.service.api.JolokiaContext;
import org.jolokia.server.core.util.RequestType;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.ObjectName;

/**
 * Jolokia's HTTP request handler with heaptap's bounds, so no request can cost the target more
 * than a small, fixed amount of heap and time (one 64 KiB POST of 1,900 pattern reads used to
 * serialise the whole MBean tree 1,900 times and run a 256 MiB JVM out of heap; a bulk of 100
 * {@code list} requests, its answers gathered in one string, did the same to a 16 MiB one):
 * <ul>
 * <li>every request reserves what it may cost ({@link JolokiaLimits#reservation}) from heaptap's heap
 *     budget before it runs, and is refused (HTTP 503, saying why) when that does not fit;</li>
 * <li>its answer is counted in bytes as it is written, and may not exceed
 *     {@link JolokiaLimits#answerBytes} (an eighth of the budget, at most 4 MiB); a single answer
 *     that would is replaced by an error saying so;</li>
 * <li>a bulk request holds at most {@value #MAX_BULK} requests; answered one by one, they stop when
 *     the answer is nearly full or after {@value #TIME_BUDGET_MILLIS} ms, and the rest are answered
 *     with an error saying so;</li>
 * <li>serialisation stops at depth {@value JolokiaLimits#MAX_DEPTH}, {@value JolokiaLimits#MAX_COLLECTION_SIZE}
 *     elements per collection and {@link JolokiaLimits#maxObjects} values per answer; a client may ask
 *     for less, never more (Jolokia would take a request's {@code maxObjects=0} as "no limit");</li>
 * <li>an MBean pattern is resolved before anything is read: when it matches an MBean the restrictor
 *     does not expose, the request is refused (Jolokia itself would fetch every attribute of every
 *     match first, and only then drop the forbidden ones);</li>
 * <li>{@code exec} and {@code write} run only through POST: a GET is what any web page can make a
 *     browser send;</li>
 * <li>a request cannot turn stack traces on.</li>
 * </ul>
 */
final class BoundedRequestHandler extends HttpRequestHandler {
    static final int MAX_BULK = 100;
    static final long TIME_BUDGET_MILLIS = 10_000;
    /** Room kept at the end of a bulk answer for the short errors of the requests not run (about 250 bytes each). */
    static final int SKIPPED_ROOM = MAX_BULK * 320;
    private static final Set<String> NOT_FROM_CLIENTS = Set.of(ConfigKey.INCLUDE_STACKTRACE.getKeyValue(),
            ConfigKey.SERIALIZE_EXCEPTION.getKeyValue());

    private final HeaptapRestrictor restrictor;
    private final JolokiaLimits limits;
    private final HeapBudget budget;

    BoundedRequestHandler(JolokiaContext context, HeaptapRestrictor restrictor, JolokiaLimits limits, HeapBudget budget) {
        super(context);
        this.restrictor = restrictor;
        this.limits = limits;
        this.budget = budget;
    }

    /** A GET: one request, never exec or write. */
    byte[] get(String pathInfo, Map<String, String[]> query) throws BadRequestException, EmptyResponseException {
        JolokiaRequest request = JolokiaRequestFactory.createGetRequest(pathInfo, getProcessingParameter(clientParameters(query)));
        if (request.getType() == RequestType.EXEC || request.getType() == RequestType.WRITE) {
            throw new HttpError(405, "Jolokia " + request.getType().getName() + " changes state and runs only through POST"
                    + " (with Content-Type: application/json or a bearer token): a GET is what any web page can make a browser send",
                    null, Map.of("Allow", "POST"));
        }
        try (HeapBudget.Reservation reserved = reserve("a Jolokia request")) {
            AnswerBuffer out = new AnswerBuffer(limits.answerBytes());
            answer(request, out);
            return out.toByteArray();
        }
    }

    /** A POST: one request, or a bounded bulk of them. */
    byte[] post(byte[] body, Charset charset, Map<String, String[]> query) throws BadRequestException, EmptyResponseException {
        Object parsed;
        try {
            parsed = new JSONParser().parse(new InputStreamReader(new ByteArrayInputStream(body), charset));
        } catch (ParseException | IOException | RuntimeException e) {
            throw new BadRequestException("Invalid JSON request: " + e.getMessage());
        }
        var parameters = getProcessingParameter(clientParameters(query));
        if (parsed instanceof JSONObject single) {
            JolokiaRequest request = JolokiaRequestFactory.createPostRequest(clientConfig(single), parameters);
            try (HeapBudget.Reservation reserved = reserve("a Jolokia request")) {
                AnswerBuffer out = new AnswerBuffer(limits.answerBytes());
                answer(request, out);
                return out.toByteArray();
            }
        }
        if (!(parsed instanceof JSONArray bulk)) {
            throw new BadRequestException("Invalid JSON request: expected an object or an array of objects");
        }
        if (bulk.size() > MAX_BULK) {
            throw new HttpError(413, "a bulk request of " + bulk.size() + " requests: heaptap answers at most " + MAX_BULK
                    + " in one POST");
        }
        try (HeapBudget.Reservation reserved = reserve("a Jolokia bulk request")) {
            return bulk(bulk, parameters);
        }
    }

    private byte[] bulk(JSONArray bulk, ProcessingParameters parameters) throws EmptyResponseException {
        long deadline = System.nanoTime() + TIME_BUDGET_MILLIS * 1_000_000;
        AnswerBuffer out = new AnswerBuffer(limits.answerBytes());
        int full = Math.max(0, limits.answerBytes() - SKIPPED_ROOM);
        out.appendAscii("[");
        boolean first = true;
        for (Object item : bulk) {
            if (!first) {
                out.appendAscii(",");
            }
            first = false;
            if (out.size() >= full || System.nanoTime() - deadline > 0) {
                out.appendAscii(skipped("not run: the answers before it used up heaptap's budget for one bulk request ("
                        + limits.answerBytes() / 1024 + " KiB of answer, " + TIME_BUDGET_MILLIS / 1000 + " s); send it again"));
            } else if (!(item instanceof JSONObject object)) {
                out.appendAscii(skipped("not a request: expected a JSON object"));
            } else {
                JolokiaRequest request;
                try {
                    request = JolokiaRequestFactory.createPostRequest(clientConfig(object), parameters);
                } catch (IllegalArgumentException | UnsupportedOperationException | ClassCastException e) {
                    write(getErrorJSON(400, e, null), out, out.size());
                    continue;
                }
                answer(request, out, full);
            }
        }
        out.appendAscii("]");
        return out.toByteArray();
    }

    private HeapBudget.Reservation reserve(String what) {
        return budget.reserve(limits.reservation(), what, "ask for less: one MBean, one attribute, a path into it", true);
    }

    /** One request, checked, run, and its answer written into {@code out}, bounded. */
    private void answer(JolokiaRequest request, AnswerBuffer out) throws EmptyResponseException {
        answer(request, out, limits.answerBytes());
    }

    private void answer(JolokiaRequest request, AnswerBuffer out, int upTo) throws EmptyResponseException {
        JSONObject json;
        try {
            checkExposed(request);
            json = executeRequest(request);
        } catch (SecurityException e) {
            json = getErrorJSON(403, new Exception(e.getMessage()), request);
        } catch (IOException e) {
            json = getErrorJSON(500, e, request);
        }
        write(json, out, upTo);
    }

    /** Writes the answer if it fits below {@code upTo} bytes, an error saying it did not otherwise. */
    private void write(JSONObject json, AnswerBuffer out, int upTo) {
        int mark = out.size();
        try {
            Writer w = out.writer();
            json.writeJSONString(w);
            w.flush();
            if (out.size() <= upTo) {
                return;
            }
        } catch (AnswerBuffer.TooLarge e) {
            // taken back below
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        out.truncate(mark);
        out.appendAscii(skipped("the answer is larger than the " + (upTo - mark) / 1024 + " KiB heaptap has left for it (at most "
                + limits.answerBytes() / 1024 + " KiB an answer, from its heap budget in this JVM): ask for less"
                + " (an attribute, a path into it)"));
    }

    /** Refuses, before anything is read, what touches an MBean or attribute the restrictor does not expose. */
    private void checkExposed(JolokiaRequest request) throws IOException {
        RequestType type = request.getType();
        if (!(request instanceof JolokiaObjectNameRequest named)
                || (type != RequestType.READ && type != RequestType.WRITE && type != RequestType.EXEC)) {
            return;  // list and search hide what is not exposed themselves, and read nothing
        }
        ObjectName name = named.getObjectName();
        Set<ObjectName> names = name.isPattern() ? jolokiaCtx.getMBeanServerAccess().queryNames(name) : Set.of(name);
        for (ObjectName n : names) {
            if (!restrictor.isExposed(n)) {
                throw new SecurityException(n + (name.isPattern() ? ", matched by " + name + "," : "")
                        + " is not exposed through heaptap (its own MBean and the JVM's memory MBeans are)");
            }
            if (request instanceof JolokiaReadRequest read && HeaptapRestrictor.isRuntime(n)) {
                List<String> attributes = read.getAttributeNames();
                if (!read.hasAttribute() || attributes == null
                        || !HeaptapRestrictor.RUNTIME_ATTRIBUTES.containsAll(attributes)) {
                    throw new SecurityException(n + ": name the attributes to read, among " + HeaptapRestrictor.RUNTIME_ATTRIBUTES
                            + " (system properties, JVM arguments and class paths are not exposed: they carry secrets)");
                }
            }
        }
    }

    private static String skipped(String why) {
        JSONObject error = new JSONObject();
        error.put("status", 503);
        error.put("error_type", "heaptap.limit");
        error.put("error", why);
        return error.toJSONString();  // ASCII: the messages are heaptap's own
    }

    /** The query's processing parameters, without those a client may not set and with limits no higher than heaptap's. */
    private Map<String, String[]> clientParameters(Map<String, String[]> query) {
        Map<String, String[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> e : query.entrySet()) {
            if (NOT_FROM_CLIENTS.contains(e.getKey())) {
                continue;
            }
            ConfigKey key = ConfigKey.getRequestConfigKey(e.getKey());
            Integer limit = key == null ? null : limits.config().get(key);
            String[] values = e.getValue();
            out.put(e.getKey(), limit == null || values.length == 0 ? values : new String[] {clamp(values[0], limit)});
        }
        return out;
    }

    /** The same for the {@code config} object of a request in a POST body. */
    private JSONObject clientConfig(JSONObject request) {
        if (request.get("config") instanceof Map<?, ?> config) {
            JSONObject cleaned = new JSONObject();
            for (Map.Entry<?, ?> e : config.entrySet()) {
                String name = String.valueOf(e.getKey());
                if (NOT_FROM_CLIENTS.contains(name)) {
                    continue;
                }
                ConfigKey key = ConfigKey.getRequestConfigKey(name);
                Integer limit = key == null ? null : limits.config().get(key);
                cleaned.put(name, limit == null ? e.getValue() : clamp(String.valueOf(e.getValue()), limit));
            }
            request.put("config", cleaned);
        }
        return request;
    }

    /** A limit a client asks for: kept when it is 1 to heaptap's, otherwise heaptap's (0 would mean none). */
    static String clamp(String asked, int limit) {
        String s = asked == null ? "" : asked.trim();
        if (s.matches("[0-9]{1,9}")) {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= limit) {
                return s;
            }
        }
        return Integer.toString(limit);
    }

    static Charset charset(String contentType) {
        if (contentType != null) {
            for (String part : contentType.split(";")) {
                String p = part.trim();
                if (p.regionMatches(true, 0, "charset=", 0, 8)) {
                    try {
                        return Charset.forName(p.substring(8).replace("\"", "").trim());
                    } catch (IllegalArgumentException e) {
                        throw new HttpError(400, "unknown charset in Content-Type: " + contentType);
                    }
                }
            }
        }
        return StandardCharsets.UTF_8;
    }
}
