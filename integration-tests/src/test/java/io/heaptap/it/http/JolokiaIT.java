package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.Http;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.workload.Allocator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jolokia.client.JolokiaClient;
import org.jolokia.client.JolokiaClientBuilder;
import org.jolokia.client.exception.JolokiaRemoteException;
import org.jolokia.client.request.HttpMethod;
import org.jolokia.client.request.JolokiaExecRequest;
import org.jolokia.client.request.JolokiaReadRequest;
import org.jolokia.client.request.JolokiaRequest;
import org.jolokia.client.response.JolokiaExecResponse;
import org.jolokia.client.response.JolokiaReadResponse;
import org.jolokia.client.response.JolokiaResponse;
import org.jolokia.client.spi.HttpHeader;
import org.junit.jupiter.api.Test;

/**
 * Jolokia's own Java client against {@code /jolokia}: heaptap's restrictor lets it read the memory
 * MBeans and operate heaptap's MBean through POST, and refuses exec on every other MBean. The target sets
 * {@code jolokia.*} properties that must be ignored.
 */
class JolokiaIT {

    @Test
    void readExecAndRefusal() throws Exception {
        List<String> hostile = List.of("-Djolokia.debug=true", "-Djolokia.includeStackTrace=true", "-Djolokia.agentContext=/elsewhere");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class, hostile)) {
            Http http = HttpEndpoint.serve(target.pid());
            String url = http.uri().toString();
            try (JolokiaClient jolokia = new JolokiaClientBuilder().url(url + "jolokia")
                    .setDefaultHttpHeaders(List.of(new HttpHeader("Authorization", "Bearer " + http.token()))).build()) {
                JolokiaReadResponse state = jolokia.execute(new JolokiaReadRequest("io.heaptap:type=Heaptap", "State"));
                assertEquals("idle", state.getValue());
                JolokiaReadResponse heap = jolokia.execute(new JolokiaReadRequest("java.lang:type=Memory", "HeapMemoryUsage"));
                assertTrue(heap.getValue().toString().contains("used"), "reads any MBean");

                // exec changes state: through POST only (the client sends a simple exec as a GET unless told).
                JolokiaExecRequest start = new JolokiaExecRequest("io.heaptap:type=Heaptap",
                        "start(java.lang.String,java.lang.String,java.lang.String)", "1m", "64k", "default");
                JolokiaRemoteException asGet = assertThrows(JolokiaRemoteException.class, () -> jolokia.execute(start, HttpMethod.GET));
                assertTrue(asGet.getMessage().contains("405"), asGet.getMessage());
                assertEquals("idle", HttpEndpoint.json(http.get("/api/status")).get("state").asText(), "a GET exec changes nothing");
                jolokia.execute(start, HttpMethod.POST);
                assertEquals("recording", HttpEndpoint.json(http.get("/api/status")).get("state").asText(),
                        "exec through Jolokia reaches the one Controller");
                Wait.until("samples", Duration.ofSeconds(30),
                        () -> ((Number) read(jolokia, "Samples")).longValue() > 0);
                // The whole status in one read, as JSON (the Status composite).
                Map<?, ?> status = (Map<?, ?>) read(jolokia, "Status");
                assertEquals("recording", status.get("state"), status.toString());
                assertTrue(((Number) status.get("samples")).longValue() > 0, status.toString());
                assertEquals(65536L, ((Number) status.get("samplingIntervalBytes")).longValue(), status.toString());
                JolokiaExecResponse dumped = jolokia.execute(new JolokiaExecRequest("io.heaptap:type=Heaptap",
                        "dump(java.lang.String)", "json"), HttpMethod.POST);
                Path file = Path.of((String) dumped.getValue());
                assertTrue(Files.isRegularFile(file), file.toString());
                assertTrue(Profiles.json(file).get("capture").get("samples").asLong() > 0);

                // Bulk: several requests in one POST.
                List<JolokiaRequest> bulk = List.of(new JolokiaReadRequest("io.heaptap:type=Heaptap", "State"),
                        new JolokiaReadRequest("java.lang:type=Runtime", "Uptime"));
                List<JolokiaResponse<JolokiaRequest>> answers = jolokia.execute(bulk);
                assertEquals(2, answers.size());

                JolokiaRemoteException tooSmall = assertThrows(JolokiaRemoteException.class, () -> jolokia.execute(
                        new JolokiaExecRequest("io.heaptap:type=Heaptap", "start(java.lang.String,java.lang.String,java.lang.String)", "1m", "1", "default"),
                        HttpMethod.POST));
                assertTrue(tooSmall.getMessage().contains("below the minimum of 4 KiB"), tooSmall.getMessage());
                JolokiaRemoteException refused = assertThrows(JolokiaRemoteException.class,
                        () -> jolokia.execute(new JolokiaExecRequest("java.lang:type=Memory", "gc"), HttpMethod.POST));
                assertEquals(403, refused.getStatus());
                assertTrue(refused.getRemoteStackTrace() == null || refused.getRemoteStackTrace().isEmpty(),
                        "jolokia.includeStackTrace from the target is ignored");
            }
            assertEquals(404, http.get("/elsewhere/version").status(), "jolokia.agentContext from the target is ignored");
            assertFalse(target.stdout().contains("olokia") || target.stderr().contains("olokia"),
                    "jolokia.debug is ignored: Jolokia logs nothing into the target's output");
        }
    }

    static Object read(JolokiaClient jolokia, String attribute) {
        try {
            JolokiaReadResponse r = jolokia.execute(new JolokiaReadRequest("io.heaptap:type=Heaptap", attribute));
            return r.getValue();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
