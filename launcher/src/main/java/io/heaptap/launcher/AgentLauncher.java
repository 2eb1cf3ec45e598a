package io.heaptap.launcher;

import java.lang.instrument.Instrumentation;

/**
 * Agent-Class and Premain-Class of heaptap.jar, the only heaptap class the target's system class
 * loader ever loads. It builds one private class loader per JVM and hands over to heaptap's agent
 * runtime inside it; loading the jar again reuses both.
 *
 * <p>Nothing here may throw: an exception escaping agentmain is printed on the target's stderr by
 * the JDK. A failure is kept instead and published as the system property
 * {@value #ERROR_PROPERTY}, which the CLI reads over the Attach API.
 */
public final class AgentLauncher {
    public static final String ERROR_PROPERTY = "heaptap.agent.error";
    private static final String ENTRY = "io.heaptap.agent.AgentEntry";

    private static ClassLoader loader;

    private AgentLauncher() {
    }

    public static void premain(String args, Instrumentation instrumentation) {
        launch("premain", args, instrumentation);
    }

    public static void agentmain(String args, Instrumentation instrumentation) {
        launch("agentmain", args, instrumentation);
    }

    private static synchronized void launch(String how, String args, Instrumentation instrumentation) {
        try {
            if (loader == null) {
                // Parent = platform loader: JDK modules are visible, the application's classes are not.
                loader = new PrivateClassLoader(HeaptapJar.path(), ClassLoader.getPlatformClassLoader());
            }
            Class<?> entry = Class.forName(ENTRY, true, loader);
            entry.getMethod(how, String.class, Instrumentation.class).invoke(null, args, instrumentation);
            System.clearProperty(ERROR_PROPERTY);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null ? t.getCause() : t;
            System.setProperty(ERROR_PROPERTY, cause.getClass().getName() + ": " + cause.getMessage());
        }
    }
}
