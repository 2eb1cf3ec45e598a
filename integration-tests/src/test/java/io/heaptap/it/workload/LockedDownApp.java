package io.heaptap.it.workload;

import java.lang.management.ManagementFactory;

/**
 * An application whose platform MBeanServer comes from {@link RefusingMBeanServerBuilder}: it
 * creates the server itself at start-up, as applications with a custom builder do, then
 * allocates like {@link Allocator}.
 */
public final class LockedDownApp {
    private LockedDownApp() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("javax.management.builder.initial", RefusingMBeanServerBuilder.class.getName());
        ManagementFactory.getPlatformMBeanServer();
        Allocator.main(args);
    }
}
