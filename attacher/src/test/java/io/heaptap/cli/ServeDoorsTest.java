package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.agent.AgentArguments;
import io.heaptap.cli.args.ArgumentParser;
import io.heaptap.jmx.StartArguments;
import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.wire.options.ServeRequest;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A request to serve through every door that takes one (the CLI's flags, the {@code -javaagent} argument string,
 * the MBean's startServing and startOtlpPush) gives equal options, blank and {@code default} are the default
 * everywhere, and a bad value is refused with one message: the doors share one vocabulary ({@code ServeKeys}).
 */
class ServeDoorsTest {
    private static ServeRequest cli(String... flags) {
        List<String> args = new ArrayList<>(List.of("42"));
        args.addAll(List.of(flags));
        return new ServeCommand(ArgumentParser.parse(ServeCommand.SYNTAX, args)).serveRequest();
    }

    private static String refusal(org.junit.jupiter.api.function.Executable request) {
        return assertThrows(RuntimeException.class, request).getMessage();
    }

    @Test
    void theDefaultIsLoopbackOnAnyFreePortThroughEveryDoor() {
        ServeOptions expected = ServeOptions.loopback(0);
        ServeRequest cli = cli();
        assertEquals(expected, cli.serve());
        assertFalse(cli.continuous());
        assertNull(cli.push());
        assertEquals(expected, cli("--port", "default", "--bind", "default", "--cors-origin", "default").serve());
        AgentArguments agent = AgentArguments.parse("serve");
        assertEquals(expected, agent.serve().orElseThrow());
        assertFalse(agent.continuous());
        assertEquals(expected, AgentArguments.parse("serve,port=,bind=default,cors-origin=").serve().orElseThrow());
        // JConsole's untouched fields: blank or the type's name in text fields, 0 in the port.
        assertEquals(expected, StartArguments.serve("", 0, "", ""));
        assertEquals(expected, StartArguments.serve("String", 0, "String", "String"));
        assertEquals(expected, StartArguments.serve(null, 0, null, null));
    }

    @Test
    void everyOptionIsTheSameThroughEveryDoor() {
        ServeOptions serve = new ServeOptions("::1", 8080, null, "https://grafana.example");
        OtlpPushOptions push = OtlpPushOptions.parse("http://127.0.0.1:4318", "30s");
        ServeRequest cli = cli("--port", "8080", "--bind", "[::1]", "--cors-origin", "https://grafana.example", "--continuous",
                "--service", "orders", "--otlp-push", "http://127.0.0.1:4318", "--otlp-every", "30s");
        assertEquals(new ServeRequest(serve, null, true, "orders", push), cli);
        AgentArguments agent = AgentArguments.parse("serve,port=8080,bind=[::1],cors-origin=https://grafana.example,continuous,"
                + "service=orders,otlp-push=http://127.0.0.1:4318,otlp-every=30s");
        assertEquals(new AgentArguments(java.util.Optional.of(serve), true, "orders", java.util.Optional.of(push)), agent);
        assertEquals(serve, StartArguments.serve("[::1]", 8080, "", "https://grafana.example"));
        assertEquals(push, StartArguments.otlpPush("http://127.0.0.1:4318", "30s"));
        assertEquals(OtlpPushOptions.parse("http://h:4318", null), StartArguments.otlpPush("http://h:4318", "String"),
                "a blank period is the default");
        assertEquals("/tmp/t", cli("--token-file", "/tmp/t").tokenFile(), "the door reads the token file it names");
    }

    @Test
    void aBadValueIsRefusedWithTheSameMessageThroughEveryDoor() {
        String port = refusal(() -> cli("--port", "70000"));
        assertEquals("port must be between 0 (any free port) and 65535, not 70000", port);
        assertEquals(port, refusal(() -> AgentArguments.parse("serve,port=70000")));
        assertEquals(port, refusal(() -> StartArguments.serve("", 70000, "", "")));

        String bind = refusal(() -> cli("--bind", "example.com"));
        assertTrue(bind.startsWith("bind must be an IP address"), bind);
        assertEquals(bind, refusal(() -> AgentArguments.parse("serve,bind=example.com")));
        assertEquals(bind, refusal(() -> StartArguments.serve("example.com", 0, "", "")));

        String origin = refusal(() -> cli("--cors-origin", "grafana"));
        assertEquals(origin, refusal(() -> AgentArguments.parse("serve,cors-origin=grafana")));
        assertEquals(origin, refusal(() -> StartArguments.serve("", 0, "", "grafana")));

        // The period names its option as each door spells it: --otlp-every on the command line.
        String every = refusal(() -> AgentArguments.parse("serve,continuous,otlp-push=http://h:4318,otlp-every=100ms"));
        assertTrue(every.startsWith("otlp-every must be between 1.0s and 1h"), every);
        assertEquals(every, refusal(() -> StartArguments.otlpPush("http://h:4318", "100ms")));
        assertEquals("--" + every, refusal(() -> cli("--continuous", "--otlp-push", "http://h:4318", "--otlp-every", "100ms")));
    }

    @Test
    void theRulesBetweenOptionsAreTheSameThroughEveryDoor() {
        assertEquals("--service names continuous sampling's scrapes: add --continuous", refusal(() -> cli("--service", "orders")));
        assertEquals("service names continuous sampling's scrapes: add ,continuous",
                refusal(() -> AgentArguments.parse("serve,service=orders")));
        assertEquals("--otlp-every is the period of the OTLP push: add --otlp-push URL",
                refusal(() -> cli("--continuous", "--otlp-every", "10s")));
        assertEquals("otlp-every is the period of the OTLP push: add otlp-push URL",
                refusal(() -> AgentArguments.parse("serve,continuous,otlp-every=10s")));
    }
}
