package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApplicationFrameTest {
    private static Frame frame(String cls, String method) {
        return new Frame(cls, method, cls.substring(cls.lastIndexOf('.') + 1) + ".java", 10);
    }

    @Test
    void allocatedAtSkipsTheJdkToTheApplicationsCall() {
        List<Frame> stack = List.of(frame("java.util.HashMap", "newNode"), frame("java.util.HashMap", "putVal"),
                frame("java.util.HashMap", "put"), frame("com.example.Cache", "put"), frame("com.example.Main", "main"));
        assertEquals("com.example.Cache.put(Cache.java:10)", AllocationSite.allocatedAt(stack));
    }

    @Test
    void heaptapsOwnFramesAreSkippedButItsDemoAndTestWorkloadsAreNot() {
        List<Frame> stack = List.of(frame("jdk.internal.misc.Unsafe", "allocateInstance"),
                frame("io.heaptap.session.Controller", "dump"), frame("io.heaptap.it.workload.LeakyService", "leakSome"));
        assertEquals("io.heaptap.it.workload.LeakyService.leakSome(LeakyService.java:10)", AllocationSite.allocatedAt(stack));
    }

    @Test
    void aStackOfJdkFramesAloneNamesItsInnermostFrame() {
        List<Frame> stack = List.of(frame("java.util.Arrays", "copyOf"), frame("java.lang.Thread", "run"));
        assertEquals("java.util.Arrays.copyOf(Arrays.java:10)", AllocationSite.allocatedAt(stack));
        assertEquals("[no-stack]", AllocationSite.allocatedAt(List.of()));
        assertEquals("[stack table full]", AllocationSite.allocatedAt(List.of(Frame.synthetic("[stack table full]"))));
    }
}
