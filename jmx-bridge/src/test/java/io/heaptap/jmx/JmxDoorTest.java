package io.heaptap.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.DumpDirectory;
import io.heaptap.session.FakeHttpServing;
import io.heaptap.session.HttpServing;
import io.heaptap.session.SessionState;
import io.heaptap.session.SessionStatus;
import io.heaptap.wire.options.CaptureKeys;
import io.heaptap.wire.options.LeakWatchKeys;
import io.heaptap.wire.options.PathKeys;
import io.heaptap.wire.options.ServeKeys;
import io.heaptap.wire.options.OptionKey;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.Notification;
import javax.management.openmbean.CompositeData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MBean as JConsole shows it: parameter names and tooltips from the option vocabulary, impacts, UserData. */
class JmxDoorTest {
    @TempDir
    Path tmp;

    private static final HttpServing NOT_SERVING = FakeHttpServing.NOT_SERVING;

    private DescribedMXBean bean() {
        Controller controller = new Controller(new DumpDirectory(tmp.resolve("dumps")));
        return new DescribedMXBean(new HeaptapBean(controller, "test", NOT_SERVING), new HeaptapNotifications().emitter());
    }

    private static List<MBeanOperationInfo> operations(MBeanInfo info, String name) {
        return Arrays.stream(info.getOperations()).filter(o -> o.getName().equals(name)).toList();
    }

    @Test
    void startsParametersAreTheVocabularysKeysWithTheirDefaultsInTheTooltips() {
        MBeanInfo info = bean().getMBeanInfo();
        Map<String, OptionKey> keys = CaptureKeys.ALL.stream().collect(Collectors.toMap(OptionKey::camelName, k -> k));
        List<MBeanOperationInfo> starts = operations(info, "start");
        assertEquals(Set.of(0, 3, 9), starts.stream().map(o -> o.getSignature().length).collect(Collectors.toSet()));
        for (MBeanOperationInfo start : starts) {
            assertEquals(MBeanOperationInfo.ACTION, start.getImpact());
            for (MBeanParameterInfo p : start.getSignature()) {
                if (p.getName().equals("client")) {
                    continue;
                }
                OptionKey key = keys.get(p.getName());
                assertNotNull(key, p.getName() + " is not the camelCase of an option's name");
                assertEquals(key.describe(), p.getDescription());
                assertTrue(p.getDescription().contains("Default: "), p.getDescription());
            }
        }
        List<String> full = Arrays.stream(starts.stream().filter(o -> o.getSignature().length == 9).findFirst().orElseThrow()
                .getSignature()).map(MBeanParameterInfo::getName).toList();
        List<String> expected = new ArrayList<>(CaptureKeys.ALL.stream().map(OptionKey::camelName).toList());
        expected.add("client");
        assertEquals(expected, full, "every option, in the vocabulary's order");
    }

    @Test
    void leakWatchPathAndServeTooltipsAreTheirOwnVocabularysKeys() {
        MBeanInfo info = bean().getMBeanInfo();
        Map<String, OptionKey> expected = Map.of("startLeakWatch duration", LeakWatchKeys.DURATION,
                "startLeakWatch every", LeakWatchKeys.EVERY, "startLeakWatch interval", LeakWatchKeys.INTERVAL,
                "startLeakWatch gc", LeakWatchKeys.GC, "referencePaths maxPaths", PathKeys.MAX_PATHS,
                "referencePaths timeLimit", PathKeys.TIME_LIMIT, "startServing port", ServeKeys.PORT,
                "startServing allowOrigin", ServeKeys.CORS_ORIGIN, "startOtlpPush every", ServeKeys.OTLP_EVERY,
                "startContinuous service", ServeKeys.SERVICE);
        int seen = 0;
        for (MBeanOperationInfo op : info.getOperations()) {
            for (MBeanParameterInfo p : op.getSignature()) {
                OptionKey key = expected.get(op.getName() + " " + p.getName());
                if (key != null) {
                    assertEquals(key.describe(), p.getDescription(), op.getName() + " " + p.getName());
                    seen++;
                }
            }
        }
        assertTrue(seen >= expected.size(), "every listed parameter was found: " + seen);
    }

    @Test
    void readsAreInfoChangesAreActionsAndTheRawDumpsAreNotTheUsers() {
        MBeanInfo info = bean().getMBeanInfo();
        for (String read : List.of("topAllocations", "topLive", "leakRanking", "leakReport")) {
            operations(info, read).forEach(o -> assertEquals(MBeanOperationInfo.INFO, o.getImpact(), read));
        }
        for (String action : List.of("stop", "reset", "startLeakWatch", "stopLeakWatch", "stopContinuous", "stopServing")) {
            operations(info, action).forEach(o -> assertEquals(MBeanOperationInfo.ACTION, o.getImpact(), action));
        }
        for (String both : List.of("dump", "dumpText", "dumpBytes", "referencePaths", "startContinuous", "startServing")) {
            operations(info, both).forEach(o -> assertEquals(MBeanOperationInfo.ACTION_INFO, o.getImpact(), both));
        }
        assertEquals(String.class.getName(), operations(info, "dumpText").get(0).getReturnType());
        assertEquals(String.class.getName(), operations(info, "leakReport").get(0).getReturnType());
        for (String raw : List.of("openRawDump", "readRawDump", "closeRawDump")) {
            assertTrue(operations(info, raw).isEmpty(), raw + " belongs to the RawDumps MBean");
        }
        assertFalse(Arrays.stream(info.getAttributes()).anyMatch(a -> a.getName().endsWith("Bytes") && a.getType().equals("double")),
                "byte figures are whole bytes");
    }

    @Test
    void aBadFieldIsRefusedBeforeAnythingStarts() {
        HeaptapMXBean bean = new HeaptapBean(new Controller(new DumpDirectory(tmp.resolve("d"))), "test", NOT_SERVING);
        String both = assertThrows(IllegalArgumentException.class, () -> bean.start("", "64k", "100")).getMessage();
        assertTrue(both.contains("not both"), both);
        String depth = assertThrows(IllegalArgumentException.class,
                () -> bean.start("", "", "", 9999, 0, "", 0, "", "")).getMessage();
        assertTrue(depth.contains("depth must be between 1 and"), depth);
        assertEquals("idle", bean.getState());
    }

    @Test
    void notificationsCarryTheirFiguresAsUserData() {
        HeaptapNotifications notifications = new HeaptapNotifications();
        List<Notification> sent = new ArrayList<>();
        notifications.emitter().addNotificationListener((n, handback) -> sent.add(n), null, null);
        CaptureOptions options = CaptureKeys.parse(Map.of());
        SessionStatus status = new SessionStatus(SessionState.RECORDING, "jconsole", Instant.now(), Instant.now().plusSeconds(30),
                30_000, options, 12, 0, null, null, options.intervalBytes(), null);
        notifications.captureStarted(status);
        notifications.captureEnded(status, "time box ended");
        CompositeData started = (CompositeData) sent.get(0).getUserData();
        assertEquals("jconsole", started.get("startedBy"));
        assertEquals(Duration.ofSeconds(30).toMillis(), started.get("durationMillis"));
        assertEquals(true, started.get("costBounded"));
        assertEquals(CaptureOptions.DEFAULT_SAMPLE_RATE, started.get("sampleRate"));
        CompositeData ended = (CompositeData) sent.get(1).getUserData();
        assertEquals("time box ended", ended.get("reason"));
        assertEquals(12L, ended.get("samples"));
    }
}
