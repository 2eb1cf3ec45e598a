package io.heaptap.it.workload;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.MBeanServer;
import javax.management.MBeanServerBuilder;
import javax.management.MBeanServerDelegate;
import javax.management.ObjectName;

/**
 * An MBeanServer that kills its own JVM with a real signal in the middle of a call to heaptap's
 * MBean: the target dying mid-command, at a chosen point of any command. {@code -Ddie.on=<operation
 * or attribute>}, {@code -Ddie.after=<n>} (the n-th such call, default 1; a getAttributes naming it counts),
 * {@code -Ddie.signal=TERM|KILL}.
 * The call never returns: the signal ends the JVM while heaptap waits for the answer.
 */
public final class DyingMBeanServerBuilder extends MBeanServerBuilder {
    private static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public MBeanServer newMBeanServer(String defaultDomain, MBeanServer outer, MBeanServerDelegate delegate) {
        MBeanServer real = super.newMBeanServer(defaultDomain, outer, delegate);
        String dieOn = System.getProperty("die.on", "");
        int after = Integer.getInteger("die.after", 1);
        return (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(), new Class<?>[] {MBeanServer.class},
                (proxy, method, args) -> {
                    boolean heaptap = args != null && args.length > 1 && args[0] instanceof ObjectName name
                            && name.getDomain().equals("io.heaptap");
                    boolean call = method.getName().equals("invoke") || method.getName().startsWith("getAttribute");
                    // getAttributes (a capture's progress tick) counts as one call of each attribute it names
                    boolean named = args != null && args.length > 1 && args[1] instanceof String[] names
                            ? Arrays.asList(names).contains(dieOn) : args != null && args.length > 1 && dieOn.equals(args[1]);
                    if (heaptap && call && named && CALLS.incrementAndGet() == after) {
                        die();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    static void die() {
        System.out.println("dying during a call");
        System.out.flush();
        try {
            new ProcessBuilder("kill", "-" + System.getProperty("die.signal", "KILL"), Long.toString(ProcessHandle.current().pid()))
                    .start().waitFor();
            Thread.sleep(Long.MAX_VALUE);  // the signal ends the JVM meanwhile
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
