package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.agent.AgentArgumentCodec;
import io.heaptap.agent.CaptureRequest;
import io.heaptap.cli.args.ArgumentParser;
import io.heaptap.http.api.ApiRoutes;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.QueryParams;
import io.heaptap.jmx.StartArguments;
import io.heaptap.wire.options.CaptureOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * One request through every door's own parser (CLI flags, HTTP parameters, MBean arguments, the agent
 * argument string) gives equal options: the doors share one vocabulary, so none can drift.
 */
class OptionDoorsTest {
    private static CaptureOptions cli(String... flags) {
        List<String> args = new ArrayList<>(List.of("42"));
        args.addAll(List.of(flags));
        return CaptureFlags.from(ArgumentParser.parse(StartCommand.SYNTAX, args)).options();
    }

    private static CaptureOptions http(String... nameValues) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            query.put(nameValues[i], List.of(nameValues[i + 1]));
        }
        return ApiRoutes.startOptions(QueryParams.of(query));
    }

    private static CaptureOptions agent(String arguments) {
        return CaptureRequest.decode(AgentArgumentCodec.decode("capture,reply=1,client=c,first-sample=false" + arguments)).options();
    }

    /** What the CLI sends to the target, read there. */
    private static CaptureOptions sent(CaptureOptions options) {
        return CaptureRequest.decode(AgentArgumentCodec.decode(new CaptureRequest(options, "c", "1", false).encode())).options();
    }

    @Test
    void theDefaultRequestIsTheCostBoundedDefaultThroughEveryDoor() {
        CaptureOptions expected = CaptureOptions.defaultSampling(Duration.ofSeconds(30), CaptureOptions.DEFAULT_DEPTH,
                CaptureOptions.DEFAULT_MAX_STACKS, true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        assertTrue(expected.costBounded());
        assertEquals(expected, cli());
        assertEquals(expected, cli("--duration", "default", "--rate", "default", "--interval", "default", "--depth", "default", "--live-bytes", "default"));
        assertEquals(expected, http());
        assertEquals(expected, http("duration", "", "interval", "", "rate", "default", "depth", "", "max-stacks", "",
                "live", "", "live-budget", "default", "live-bytes", ""));
        // JConsole's untouched fields: blank or the type's name in text fields, 0 in number fields.
        assertEquals(expected, StartArguments.options("", "", "", 0, 0, "", 0, ""));
        assertEquals(expected, StartArguments.options("String", "String", "String", 0, 0, "String", 0, "String"));
        assertEquals(expected, StartArguments.options(null, null, null, 0, 0, null, 0, null));
        assertEquals(expected, agent(""));
        assertEquals(expected, agent(",duration=,rate=default"));
        assertEquals(expected, sent(cli()));
    }

    @Test
    void aSampleRateWithEveryOptionIsTheSameThroughEveryDoor() {
        CaptureOptions expected = new CaptureOptions(Duration.ofMinutes(2), CaptureOptions.DEFAULT_INTERVAL, 16, 1024, false, 4096, 2000)
                .withLiveBytes(0.05);
        assertEquals(expected, cli("--duration", "2m", "--rate", "2000", "--depth", "16", "--max-stacks", "1024", "--no-live",
                "--live-budget", "4096", "--live-bytes", "5%"));
        assertEquals(expected, http("duration", "2m", "rate", "2000", "depth", "16", "max-stacks", "1024", "live", "false",
                "live-budget", "4096", "live-bytes", "5%"));
        assertEquals(expected, http("duration", "2m", "rate", "2000/s", "depth", "16", "maxStacks", "1024", "live", "0",
                "liveBudget", "4096", "liveBytes", "5%"), "the older HTTP spellings");
        assertEquals(expected, StartArguments.options("2m", "", "2000", 16, 1024, "false", 4096, "5%"));
        assertEquals(expected, StartArguments.options("2m", "2000/s", "", 16, 1024, "false", 4096, "5%"),
                "the MBean's older interval=N/s");
        assertEquals(expected, agent(",duration=2m,rate=2000,depth=16,max-stacks=1024,live=false,live-budget=4096,live-bytes=5%25"));
        assertEquals(expected, sent(expected));
    }

    @Test
    void aFixedIntervalWithAByteBoundIsTheSameThroughEveryDoor() {
        CaptureOptions expected = new CaptureOptions(Duration.ofMillis(1500), 64 * 1024, 64, 65_536, true, 65_536).withLiveBytes(64 << 20);
        assertEquals(expected, cli("--duration", "1500ms", "--interval", "64k", "--live-bytes", "64m"));
        assertEquals(expected, http("duration", "1500ms", "interval", "64k", "live-bytes", "64m"));
        assertEquals(expected, StartArguments.options("1500ms", "64k", "", 0, 0, "true", 0, "64m"));
        assertEquals(expected, agent(",duration=1500ms,interval=64k,live-bytes=64m"));
        assertEquals(expected, sent(expected));
        CaptureOptions share = expected.withLiveBytes(0.015);
        assertEquals(share, sent(share), "a share survives the trip as its exact decimal percent");
    }

    @Test
    void everyDoorRefusesBothAnIntervalAndARateWithTheSameRule() {
        String cli = assertThrows(IllegalArgumentException.class, () -> cli("--interval", "64k", "--rate", "100")).getMessage();
        assertTrue(cli.contains("--interval") && cli.contains("not both"), cli);
        HttpError http = assertThrows(HttpError.class, () -> http("interval", "64k", "rate", "100"));
        assertTrue(http.getMessage().contains("not both"), http.getMessage());
        assertEquals("rate", http.parameter());
        String jmx = assertThrows(IllegalArgumentException.class,
                () -> StartArguments.options("", "64k", "100", 0, 0, "", 0, "")).getMessage();
        assertTrue(jmx.contains("not both"), jmx);
        String agent = assertThrows(IllegalArgumentException.class, () -> agent(",interval=64k,rate=100")).getMessage();
        assertTrue(agent.contains("not both"), agent);
    }

    @Test
    void aBadValueIsRefusedWithTheSameMessageThroughEveryDoor() {
        String cli = assertThrows(IllegalArgumentException.class, () -> cli("--depth", "9999")).getMessage();
        HttpError http = assertThrows(HttpError.class, () -> http("depth", "9999"));
        assertEquals(cli, http.getMessage());
        assertEquals("depth", http.parameter(), "HTTP's error names the parameter at fault");
        assertEquals(cli, assertThrows(IllegalArgumentException.class,
                () -> StartArguments.options("", "", "", 9999, 0, "", 0, "")).getMessage());
        assertEquals(cli, assertThrows(IllegalArgumentException.class, () -> agent(",depth=9999")).getMessage());
    }
}
