package io.heaptap.jmx;

import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;

import java.lang.management.ManagementFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** Puts heaptap's MXBean into the platform MBeanServer, under a stable, documented name. */
public final class MBeanRegistration {
    public static final String OBJECT_NAME = "io.heaptap:type=Heaptap";
    /**
     * Set once heaptap has registered its MBean in this JVM: if the MBean is missing later, the
     * application unregistered it (and the CLI can say so), rather than heaptap never having run.
     */
    public static final String REGISTERED_PROPERTY = "heaptap.mbean.registered";

    private MBeanRegistration() {
    }

    public static ObjectName objectName() {
        try {
            return new ObjectName(OBJECT_NAME);
        } catch (MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Registers the MXBean unless it is there already. Loading the agent twice, or the application
     * having unregistered it, both end with exactly one registered bean. Returns whether it had to
     * register it.
     */
    public static boolean ensureRegistered(Controller controller, HeaptapNotifications notifications, String version,
                                           HttpServing http) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        if (server.isRegistered(objectName())) {
            return false;
        }
        try {
            server.registerMBean(new DescribedMXBean(new HeaptapBean(controller, version, http), notifications.emitter()), objectName());
            System.setProperty(REGISTERED_PROPERTY, "true");
            return true;
        } catch (InstanceAlreadyExistsException raced) {
            return false;  // registered meanwhile by a concurrent load: fine
        }
    }
}
