package io.heaptap.it.workload;

import java.lang.management.ManagementFactory;
import java.util.Properties;

/**
 * {@link Allocator} with a platform MBeanServer from {@link DyingMBeanServerBuilder}; with
 * {@code -Ddie.on=property:PREFIX} it dies instead when a system property named PREFIX... is set
 * (heaptap's agent answers the CLI's {@code start} that way, without JMX).
 */
public final class DyingApp {
    private DyingApp() {
    }

    /** System properties that end the JVM when one with the prefix is set. */
    static final class DyingProperties extends Properties {
        private final String prefix;

        DyingProperties(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public synchronized Object put(Object key, Object value) {
            if (key instanceof String name && name.startsWith(prefix)) {
                DyingMBeanServerBuilder.die();
            }
            return super.put(key, value);
        }
    }

    public static void main(String[] args) throws Exception {
        String dieOn = System.getProperty("die.on", "");
        if (dieOn.startsWith("property:")) {
            Properties dying = new DyingProperties(dieOn.substring("property:".length()));
            dying.putAll(System.getProperties());
            System.setProperties(dying);
        }
        System.setProperty("javax.management.builder.initial", DyingMBeanServerBuilder.class.getName());
        ManagementFactory.getPlatformMBeanServer();
        Allocator.main(args);
    }
}
