package io.heaptap.agent.jmx;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.UnaryOperator;

import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.remote.MBeanServerForwarder;

/**
 * The agent's requests (a capture's start, its stop: the text a {@code loadAgent} would carry) over
 * heaptap's own JMX connector, so a target that runs heaptap already is not given another agent,
 * whose JVMTI environment the JDK would never dispose. One operation, {@value #OPERATION}(String) on
 * {@link #NAME}, answered by the agent with the text it would have published as its reply.
 *
 * <p>A forwarder in front of the connector's MBeanServer, not an MBean: the name exists only on
 * heaptap's own connector, which takes only the key in its owner-only file, so no other JMX client
 * (JConsole, Jolokia, the JVM's own connectors) sees it or can call it.
 */
public final class AgentRequests implements InvocationHandler {
    public static final String OPERATION = "request";
    public static final ObjectName NAME = name("io.heaptap:type=AgentRequests");

    private final UnaryOperator<String> agent;
    private volatile MBeanServer server;

    private AgentRequests(UnaryOperator<String> agent) {
        this.agent = agent;
    }

    /** A forwarder that answers requests with {@code agent} and passes everything else on. */
    static MBeanServerForwarder forwarder(UnaryOperator<String> agent) {
        return (MBeanServerForwarder) Proxy.newProxyInstance(MBeanServerForwarder.class.getClassLoader(),
                new Class<?>[] {MBeanServerForwarder.class}, new AgentRequests(agent));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (method.getDeclaringClass() == Object.class) {
            return switch (name) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "heaptap's agent requests over " + server;
            };
        }
        if (name.equals("getMBeanServer")) {
            return server;
        }
        if (name.equals("setMBeanServer")) {
            server = (MBeanServer) args[0];
            return null;
        }
        if (name.equals("invoke") && NAME.equals(args[0])) {
            return answer((String) args[1], (Object[]) args[2], (String[]) args[3]);
        }
        if (name.equals("getClassLoaderFor") && NAME.equals(args[0])) {
            // The connection reads an operation's parameters with its MBean's loader: they are strings.
            return AgentRequests.class.getClassLoader();
        }
        try {
            return method.invoke(server, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private String answer(String operation, Object[] params, String[] signature) throws ReflectionException {
        if (!OPERATION.equals(operation) || params == null || params.length != 1 || !(params[0] instanceof String request)
                || signature == null || signature.length != 1 || !String.class.getName().equals(signature[0])) {
            throw refused("heaptap's agent takes " + OPERATION + "(String) only");
        }
        try {
            return agent.apply(request);
        } catch (RuntimeException e) {
            // Only JDK types cross the connection: the client may not know the agent's exception classes.
            throw refused(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static ReflectionException refused(String message) {
        return new ReflectionException(new IllegalArgumentException(message), message);
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
