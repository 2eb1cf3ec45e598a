package io.heaptap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.wire.options.CaptureOptions;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class AgentArgumentCodecTest {

    @Test
    void freeTextSurvivesTheTripWhateverItHolds() {
        String text = "heaptap start (pid 7, user a,b=c) 100% \u00e9\u4e2d\ud83d\ude00\n\t end";
        String encoded = AgentArgumentCodec.encode("capture", Map.of("client", text));
        assertEquals(1, encoded.chars().filter(c -> c == '=').count(), encoded);
        assertEquals(1, encoded.chars().filter(c -> c == ',').count(), encoded);
        assertTrue(encoded.chars().allMatch(c -> c > ' ' && c < 0x7f), encoded);
        assertEquals(text, AgentArgumentCodec.decode(encoded).values().get("client"));
    }

    @Test
    void handWrittenArgumentsReadAsBefore() {
        AgentArgumentCodec.Decoded d = AgentArgumentCodec.decode(" serve , port=8080,bind=127.0.0.1, cors-origin=https://host:8443/x ");
        assertEquals("serve", d.command());
        assertEquals(Map.of("port", "8080", "bind", "127.0.0.1", "cors-origin", "https://host:8443/x"), d.values());
        assertEquals("/tmp/a,b", AgentArgumentCodec.decode("serve,token-file=/tmp/a%2Cb").values().get("token-file"));
    }

    @Test
    void continuousIsABareFlagAndServiceNeedsIt() {
        AgentArguments a = AgentArguments.parse("serve,continuous,service=orders%2Ceu,port=0");
        assertTrue(a.continuous());
        assertEquals("orders,eu", a.service());
        assertTrue(a.serve().isPresent());
        assertFalse(AgentArguments.parse("serve,port=0").continuous());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,service=orders"))
                .getMessage().contains("add ,continuous"));
    }

    @Test
    void theOtlpPushNeedsContinuousAndAGoodUrl() {
        AgentArguments a = AgentArguments.parse("serve,continuous,otlp-push=http://10.0.0.5:4318,otlp-every=30s");
        assertEquals(java.net.URI.create("http://10.0.0.5:4318/v1development/profiles"), a.push().orElseThrow().endpoint());
        assertEquals(java.time.Duration.ofSeconds(30), a.push().orElseThrow().every());
        assertEquals(java.time.Duration.ofSeconds(60),
                AgentArguments.parse("serve,continuous,otlp-push=http://h:4318").push().orElseThrow().every());
        assertFalse(AgentArguments.parse("serve,continuous").push().isPresent());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,otlp-push=http://h:4318"))
                .getMessage().contains("add ,continuous"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,continuous,otlp-every=30s"))
                .getMessage().contains("add otlp-push URL"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,continuous,otlp-push=ftp://h"))
                .getMessage().contains("not an http:// or https:// URL"));
    }

    @Test
    void malformedInputIsRefusedWithTheReason() {
        // A bare word is a flag (name=true): read as a number it is refused.
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,port").number("port"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,a b"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,=1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,port=1,port=2"))
                .getMessage().contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,bind=100%"))
                .getMessage().contains("%25"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,bind=%zz"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("serve,bind=%C3"));  // cut UTF-8
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> AgentArgumentCodec.decode("serve,colour=red").onlyNames(List.of("port", "bind")))
                .getMessage().contains("'colour' (port, bind)"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("x,n=\u0663").number("n"));
        assertThrows(IllegalArgumentException.class, () -> AgentArgumentCodec.decode("x,f=yes").flag("f"));
    }

    @Test
    void aCaptureRequestDecodesToTheSameOptions() {
        // adaptive (from the default interval, as every door starts one), a byte bound asked for
        CaptureOptions options = new CaptureOptions(Duration.ofMillis(90_500), CaptureOptions.DEFAULT_INTERVAL, 128, 1000, false, 77,
                5_000).withLiveBytes(0.05);
        CaptureRequest request = new CaptureRequest(options, "heaptap start (pid 1, user o'brien, x=y)", "123-abc", true);
        assertEquals(request, CaptureRequest.decode(AgentArgumentCodec.decode(request.encode())));
        assertEquals("123-abc", CaptureRequest.replyOf(AgentArgumentCodec.decode(request.encode())));
    }

    @Test
    void aCaptureRequestIsCheckedAgainInTheTarget() {
        String tooDeep = new CaptureRequest(new CaptureOptions(Duration.ofSeconds(1), 65_536, 64, 10, true, 10), "c", "1", false)
                .encode().replace("depth=64", "depth=99999999999");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CaptureRequest.decode(AgentArgumentCodec.decode(tooDeep)))
                .getMessage().contains("depth must be between"));
        assertThrows(IllegalArgumentException.class, () -> new CaptureRequest(
                new CaptureOptions(Duration.ofSeconds(1), 65_536, 64, 10, true, 10), "c", "a,b", false));
    }

    @Test
    void repliesRoundTrip() {
        AgentReply started = AgentReply.started(123456789L, Instant.parse("2026-11-23T01:02:03.456789Z"));
        assertEquals(started, AgentReply.decode(started.encode()));
        AgentReply timed = AgentReply.started(123456789L, Instant.parse("2026-11-23T01:02:03.456789Z"),
                new AgentReply.Moments(123000000L, 123400000L, 123450000L));
        assertEquals(timed, AgentReply.decode(timed.encode()));
        assertThrows(IllegalArgumentException.class, () -> AgentReply.decode("started,at=1,started-at=1.000000000,entered=1"));
        AgentReply refused = AgentReply.failed(AgentReply.Outcome.REFUSED, "a capture is already running: started by x, y=z");
        assertEquals(refused, AgentReply.decode(refused.encode()));
        AgentReply bad = AgentReply.failed(AgentReply.Outcome.BAD_OPTIONS, "duration must be positive");
        assertEquals(bad, AgentReply.decode(bad.encode()));
        assertThrows(IllegalArgumentException.class, () -> AgentReply.decode("maybe,message=x"));
    }

    @Test
    void aStopRequestNamesItsCaptureByItsStart() {
        StopRequest stop = new StopRequest(Instant.parse("2026-11-23T01:02:03.456789Z"), "the CLI lost it, sorry");
        assertEquals(stop, StopRequest.decode(AgentArgumentCodec.decode(stop.encode())));
        assertThrows(IllegalArgumentException.class, () -> StopRequest.decode(AgentArgumentCodec.decode("stop,started-at=yesterday,reason=x")));
    }

    /** Instants travel as "seconds.nanoseconds", exactly, and nothing else is taken for one. */
    @Test
    void instantsTravelExactlyAsSecondsAndNanoseconds() {
        for (Instant t : new Instant[] {Instant.parse("2026-11-23T01:02:03.000000007Z"), Instant.EPOCH.minusNanos(1),
                Instant.ofEpochSecond(1_790_000_000L, 999_999_999)}) {
            assertEquals(t, StopRequest.instant(StopRequest.text(t)), StopRequest.text(t));
        }
        assertEquals("1790000000.000000042", StopRequest.text(Instant.ofEpochSecond(1_790_000_000L, 42)));
        for (String bad : new String[] {"", ".", "1.5", "1.0000000001", "-.000000000", "1.00000000x", "\u0663.000000000",
                "2026-11-23T01:02:03Z", "99999999999999999999.000000000"}) {
            assertThrows(IllegalArgumentException.class, () -> StopRequest.instant(bad), bad);
        }
    }

    @Test
    void serveArgumentsKeepTheirGrammar() {
        assertEquals(AgentArguments.DORMANT, AgentArguments.parse(" "));
        AgentArguments a = AgentArguments.parse("serve,port=8080,bind=0.0.0.0");
        assertEquals(8080, a.serve().orElseThrow().port());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,colour=red"))
                .getMessage().contains("port, bind, token-file, cors-origin"));
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("capture,reply=1"));
        assertThrows(IllegalArgumentException.class, () -> AgentArguments.parse("serve,port=\u0663"));
    }
}
