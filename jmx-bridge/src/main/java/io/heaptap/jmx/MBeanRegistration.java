package io.heaptap.jmx;

import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;

import java.lang.management.ManagementFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/** Puts heaptap's MXBean, and the CLI's raw-dump transport beside it, into the platform MBeanServer under stable, documented names. */
public final class MBeanRegistration {
    public static final String OBJECT_NAME = "io.heaptap:type=Heaptap";
    /** The CLI's transport for dumps of any size ({@link RawDumpsMXBean}), apart from the user's operations. */
    public static final String RAW_DUMPS_NAME = "io.heaptap:type=RawDumps";
    /**
     * Set once heaptap has registered its MBean in this JVM: if the MBean is missing later, the
     * application unregistered it (and the CLI can say so), rather than heaptap never having run.
     */
    public static final String REGISTERED_PROPERTY = "heaptap.mbean.registered";

    private MBeanRegistration() {
    }

    public static ObjectName objectName() {
        return name(OBJECT_NAME);
    }

    public static ObjectName rawDumpsName() {
        return name(RAW_DUMPS_NAME);
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
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
        try {
            // The CLI's transport first: a CLI that finds the heaptap MBean finds its raw dumps too.
            server.registerMBean(new StandardMBean(new RawDumpsBean(controller), RawDumpsMXBean.class, true), rawDumpsName());
        } catch (InstanceAlreadyExistsException already) {
            // loaded twice, or registered meanwhile by a concurrent load: fine
        }
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
