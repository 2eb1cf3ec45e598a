package io.heaptap.it.support;

import com.sun.tools.attach.VirtualMachine;

import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** heaptap's MXBean as a generic JMX client sees it: its name, the signature of start, the local connector. */
public final class Jmx {
    public static final ObjectName NAME = objectName("io.heaptap:type=Heaptap");
    public static final ObjectName RAW_DUMPS = objectName("io.heaptap:type=RawDumps");
    /** {@code start(duration, interval, rate)}: a blank field takes the default. */
    public static final String[] START = {"java.lang.String", "java.lang.String", "java.lang.String"};
    /** {@code start} with every option: duration, interval, rate, depth, maxStacks, live, liveBudget, liveBytes, client. */
    public static final String[] START_ALL = {"java.lang.String", "java.lang.String", "java.lang.String", "int", "int",
            "java.lang.String", "int", "java.lang.String", "java.lang.String"};

    private Jmx() {
    }

    /** The local connector, the way JConsole connects to a local process. */
    public static JMXConnector local(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            return JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
        } finally {
            vm.detach();
        }
    }

    public static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
