package io.heaptap.it.cli;

import static io.heaptap.it.support.Jmx.NAME;
import static io.heaptap.it.support.Jmx.local;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.TargetJvm;

import java.util.ArrayList;
import java.util.List;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's raw-dump slots: clients that open raw dumps and keep them (a script over JMX, dumps
 * run side by side) hold at most three of the four; the fourth is refused as busy with a message,
 * and status, paths and the target's own decoding go on, as they need no client's slot.
 */
class RawDumpSlotsIT {
    static final String[] GC = {"boolean", "boolean"};
    static final String[] ID = {"java.lang.String"};

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The messages of an exception and its causes (JMX wraps what the MBean threw). */
    static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable e = t; e != null; e = e.getCause()) {
            all.append(e.getMessage()).append('\n');
        }
        return all.toString();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void rawDumpsHeldByOneClientLeaveTheOtherDoorsWorkingAndARefusalSaysBusy(Jdk jdk) throws Exception {
        try (TargetJvm target = ReferencePathsIT.filledTarget(jdk, List.of()); JMXConnector c = local(target.pid())) {
            String pid = Long.toString(target.pid());
            MBeanServerConnection s = c.getMBeanServerConnection();
            List<String> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add((String) s.invoke(Jmx.RAW_DUMPS, "openRawDump", new Object[] {false, false}, GC));
            }
            Exception busy = assertThrows(Exception.class, () -> s.invoke(Jmx.RAW_DUMPS, "openRawDump", new Object[] {false, false}, GC));
            assertTrue(messages(busy).contains("busy: 3 raw dumps are being read"), busy::toString);

            Result status = HeaptapCli.run("status", pid);
            assertEquals(0, status.exitCode(), status::toString);
            Result paths = HeaptapCli.run("paths", pid, "--site", ReferencePathsIT.LEAKED);
            assertEquals(0, paths.exitCode(), paths::toString);
            assertTrue((Long) s.getAttribute(NAME, "EstimatedAllocatedBytes") > 0, "the target decodes its own profile");
            OneLineErrors.assertOneLineError(HeaptapCli.run("dump", pid), 5, "busy: 3 raw dumps are being read");

            s.invoke(Jmx.RAW_DUMPS, "closeRawDump", new Object[] {held.remove(0)}, ID);
            Result dump = HeaptapCli.run("dump", pid);
            assertEquals(0, dump.exitCode(), dump::toString);
            assertTrue(dump.out().contains(ReferencePathsIT.LEAKED), dump::toString);
            for (String id : held) {
                s.invoke(Jmx.RAW_DUMPS, "closeRawDump", new Object[] {id}, ID);
            }
        }
    }
}
