package io.heaptap.it.workload;

import java.lang.management.ManagementFactory;

/** {@link Allocator} with a platform MBeanServer from {@link DyingMBeanServerBuilder}. */
public final class DyingApp {
    private DyingApp() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("javax.management.builder.initial", DyingMBeanServerBuilder.class.getName());
        ManagementFactory.getPlatformMBeanServer();
        Allocator.main(args);
    }
}
