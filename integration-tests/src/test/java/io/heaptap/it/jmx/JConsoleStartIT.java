package io.heaptap.it.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.Allocator;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A person in JConsole: loads heaptap with {@code heaptap status}, connects over the local JMX connector,
 * and clicks start without touching the fields JConsole filled in (blank or "String" in text fields, 0 in
 * number fields). The capture that runs is heaptap's safe default: 30 s, the sample-rate target with the
 * default cost bound in force, not a fixed interval. No heaptap class on the client side.
 */
class JConsoleStartIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** What JConsole puts in an untouched field of each parameter type. */
    private static Object untouched(MBeanParameterInfo p, String text) {
        return switch (p.getType()) {
            case "int" -> 0;
            case "long" -> 0L;
            case "boolean" -> false;
            default -> text;
        };
    }

    private static Object[] untouched(MBeanOperationInfo op, String text) {
        return Arrays.stream(op.getSignature()).map(p -> untouched(p, text)).toArray();
    }

    private static String text(MBeanServerConnection s, String attribute) {
        try {
            return (String) s.getAttribute(Jmx.NAME, attribute);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] signature(MBeanOperationInfo op) {
        return Arrays.stream(op.getSignature()).map(MBeanParameterInfo::getType).toArray(String[]::new);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void startFromJConsolesUntouchedFieldsRunsTheCostBoundedDefault(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            Result status = HeaptapCli.run("status", pid);
            assertEquals(0, status.exitCode(), status::toString);
            assertTrue(status.out().contains("state:        idle"), "status loads the bean and starts nothing: " + status);
            try (JMXConnector c = Jmx.local(target.pid())) {
                MBeanServerConnection s = c.getMBeanServerConnection();
                BlockingQueue<Notification> notifications = new LinkedBlockingQueue<>();
                s.addNotificationListener(Jmx.NAME, (n, handback) -> notifications.add(n), null, null);
                List<MBeanOperationInfo> starts = Arrays.stream(s.getMBeanInfo(Jmx.NAME).getOperations())
                        .filter(o -> o.getName().equals("start")).toList();
                assertEquals(3, starts.size(), "start(), start(duration, interval, rate) and start with every option");
                for (MBeanOperationInfo start : starts) {
                    for (String text : List.of("", "String")) {
                        s.invoke(Jmx.NAME, "start", untouched(start, text), signature(start));
                        assertEquals("recording", s.getAttribute(Jmx.NAME, "State"), start + " with " + text);
                        long left = (Long) s.getAttribute(Jmx.NAME, "TimeLeftMillis");
                        assertTrue(left > 0 && left <= 30_000, "the default time box of 30 s: " + left);

                        Notification started = notifications.poll(30, TimeUnit.SECONDS);
                        assertEquals("io.heaptap.capture.started", started.getType());
                        CompositeData figures = (CompositeData) started.getUserData();
                        assertEquals(true, figures.get("costBounded"), figures.toString());
                        assertEquals(30_000L, figures.get("durationMillis"));
                        assertEquals("jmx", figures.get("startedBy"));

                        String sampling = (String) s.getAttribute(Jmx.NAME, "Sampling");
                        assertTrue(sampling.contains("(target 5,000 samples/s)") && !sampling.contains("fixed"),
                                "a sample-rate target, not a fixed interval: " + sampling);
                        Wait.until("a sample, so the cost is measured", Duration.ofSeconds(30),
                                () -> text(s, "SamplingCost").startsWith("sample callback"));
                        String cost = (String) s.getAttribute(Jmx.NAME, "SamplingCost");
                        assertTrue(cost.contains("bound 1.0%"), "the default cost bound is in force: " + cost);
                        CompositeData all = (CompositeData) s.getAttribute(Jmx.NAME, "Status");
                        assertTrue(((String) all.get("samplingCost")).contains("bound 1.0%"), all.toString());

                        s.invoke(Jmx.NAME, "stop", new Object[0], new String[0]);
                        Notification ended = notifications.poll(30, TimeUnit.SECONDS);
                        assertEquals("io.heaptap.capture.ended", ended.getType());
                        assertTrue(((CompositeData) ended.getUserData()).get("samples") instanceof Long);
                        if (start.getSignature().length == 0) {
                            break;  // no fields to fill
                        }
                    }
                }
                String text = (String) s.invoke(Jmx.NAME, "dumpText", new Object[] {"", "", 0L, false},
                        new String[] {"java.lang.String", "java.lang.String", "long", "boolean"});
                assertTrue(text.contains("Allocator"), "a blank format is the text table: " + text);
            }
        }
    }
}
