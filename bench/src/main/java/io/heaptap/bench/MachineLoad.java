package io.heaptap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's one-minute load average: every figure measured on a shared machine is reported with it. */
final class MachineLoad {
    private MachineLoad() {
    }

    static double now() throws IOException {
        return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    }
}
