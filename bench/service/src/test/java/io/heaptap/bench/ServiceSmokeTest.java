package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real service in its own JVM, on its runtime class path (as bench/run-service starts it): it answers
 * each endpoint correctly (checked through java.net.http, not the bench's own client), and the load client
 * drives a few hundred requests at a low fixed rate into well-formed figures.
 */
class ServiceSmokeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ServiceProcess service;
    private static InetSocketAddress address;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    static String serviceClasspath() throws Exception {
        return System.getProperty("heaptap.serviceClasses") + ":"
                + Files.readString(Path.of(System.getProperty("heaptap.serviceClasspath"))).strip();
    }

    static BenchTarget.Jdk thisJdk() throws Exception {
        return BenchSuite.jdks(System.getProperty("java.home")).get(0);
    }

    @BeforeAll
    static void start() throws Exception {
        service = new ServiceProcess(thisJdk(), serviceClasspath(), List.of());
        address = service.awaitReady(240);
    }

    @AfterAll
    static void stop() throws Exception {
        service.close();
    }

    private static JsonNode call(String method, String path, String body, int expectedStatus) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expectedStatus, response.statusCode(), method + " " + path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    @Test
    void everyEndpointAnswersCorrectly() throws Exception {
        JsonNode order = call("GET", "/orders/1", null, 200);
        assertEquals(1, order.get("id").asLong());
        assertTrue(order.get("lines").size() >= 1 && order.get("lines").size() <= 5, order.toString());

        // a write: the lines are replaced, the total follows them, and a later read sees it
        JsonNode replaced = call("PUT", "/orders/7", "{\"lines\":[{\"sku\":\"SKU-00003\",\"quantity\":2},"
                + "{\"sku\":\"SKU-00004\",\"quantity\":1}]}", 200);
        JsonNode lines = replaced.get("lines");
        assertEquals(2, lines.size());
        assertEquals(lines.get(0).get("lineTotal").decimalValue().add(lines.get(1).get("lineTotal").decimalValue()),
                replaced.get("total").decimalValue());
        assertEquals(replaced.get("total").decimalValue(), call("GET", "/orders/7", null, 200).get("total").decimalValue());
        call("PUT", "/orders/7", "{\"lines\":[{\"sku\":\"SKU-99999\",\"quantity\":1}]}", 400);
        call("GET", "/orders/999999", null, 404);

        JsonNode page = call("GET", "/customers/5/orders?page=0", null, 200);
        assertTrue(page.get("totalOrders").asLong() >= page.get("orders").size(), page.toString());

        JsonNode found = call("GET", "/products?category=books&q=", null, 200);
        assertTrue(found.size() > 0 && found.size() <= 20, found.toString());
        for (int i = 0; i < found.size(); i++) {
            assertEquals("books", found.get(i).get("category").asText());
            assertTrue(i == 0 || found.get(i - 1).get("price").decimalValue().compareTo(found.get(i).get("price").decimalValue()) <= 0);
        }

        // customer 3 has tier 3: 15% off
        JsonNode quote = call("POST", "/quotes", "{\"customerId\":3,\"lines\":[{\"sku\":\"SKU-00010\",\"quantity\":4}]}", 200);
        assertEquals(0, quote.get("discount").decimalValue().compareTo(quote.get("subtotal").decimalValue()
                .multiply(new java.math.BigDecimal("0.15")).setScale(2, java.math.RoundingMode.HALF_EVEN)), quote.toString());
        assertEquals(quote.get("subtotal").decimalValue().subtract(quote.get("discount").decimalValue()), quote.get("total").decimalValue());
    }

    @Test
    void aFixedRateGivesWellFormedFigures() throws Exception {
        LoadClient client = new LoadClient(address, service.pid());
        LoadClient.FixedRate fixed = client.fixedRate(100, 3000, 16);
        assertEquals(300, fixed.requests());
        assertEquals(0, fixed.errors(), fixed.toString());
        assertEquals(300, fixed.answered());
        assertTrue(fixed.p50Millis() > 0 && fixed.p50Millis() <= fixed.p99Millis() && fixed.p99Millis() <= fixed.p999Millis()
                && fixed.p999Millis() < 60_000, fixed.toString());
        assertTrue(fixed.cpuMicrosPerRequest() > 0 && Double.isFinite(fixed.cpuMicrosPerRequest()), fixed.toString());
        LoadClient.Saturation saturation = client.saturation(500, 2);
        assertEquals(0, saturation.errors(), saturation.toString());
        assertTrue(saturation.answered() > 0 && saturation.perSecond() > 0, saturation.toString());
        // the 300 requests carried every kind of the mix
        Set<RequestMix.Kind> kinds = EnumSet.noneOf(RequestMix.Kind.class);
        LongStream.range(0, 300).forEach(n -> kinds.add(RequestMix.request(n).kind()));
        assertEquals(EnumSet.allOf(RequestMix.Kind.class), kinds);
    }

    /** The driver end to end, briefly, with heaptap: its table has a row of five ratios and no failed request. */
    @Test
    void theDriverWritesItsTable() throws Exception {
        Path out = Path.of(System.getProperty("heaptap.serviceClasses")).resolveSibling("service-smoke.md");
        ServiceBench.main(new String[] {"--quick", "--tools", "heaptap", "--jdks", System.getProperty("java.home"),
            "--jar", System.getProperty("heaptap.jar"), "--async-profiler", System.getProperty("heaptap.asyncProfilerJar"),
            "--service-classpath", serviceClasspath(), "--out", out.toString()});
        String table = Files.readString(out);
        String number = "\\d+\\.\\d{3} \\(one value\\)";
        assertTrue(Pattern.compile("^\\| JDK 17[^|]* \\| heaptap defaults \\|( " + number + " \\|){5} 1 \\|$", Pattern.MULTILINE)
                .matcher(table).find(), table);
        assertTrue(Pattern.compile("^\\| JDK 17[^|]* \\| heaptap defaults \\|.* \\| 0 \\|$", Pattern.MULTILINE).matcher(table).find(),
                "failed requests:\n" + table);
    }
}
