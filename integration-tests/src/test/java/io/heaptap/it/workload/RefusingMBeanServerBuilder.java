package io.heaptap.it.workload;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

import javax.management.MBeanServer;
import javax.management.MBeanServerBuilder;
import javax.management.MBeanServerDelegate;
import javax.management.ObjectName;

/**
 * An MBeanServer that refuses any MBean in the io.heaptap domain, as a locked-down application's
 * custom builder or security policy might ({@code -Djavax.management.builder.initial=...}).
 */
public final class RefusingMBeanServerBuilder extends MBeanServerBuilder {
    @Override
    public MBeanServer newMBeanServer(String defaultDomain, MBeanServer outer, MBeanServerDelegate delegate) {
        MBeanServer real = super.newMBeanServer(defaultDomain, outer, delegate);
        return (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(), new Class<?>[] {MBeanServer.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("registerMBean") && args[1] instanceof ObjectName name
                            && name.getDomain().equals("io.heaptap")) {
                        throw new SecurityException("this JVM's policy refuses MBeans of domain io.heaptap");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
