package io.heaptap.launcher;

import java.lang.reflect.InvocationTargetException;

/**
 * Main-Class of heaptap.jar. The CLI runs in its own JVM, but its classes still live in the
 * private folder of the jar (they must stay invisible when the same jar is loaded as an agent),
 * so this class only builds the private loader and hands over.
 */
public final class CliLauncher {
    private CliLauncher() {
    }

    public static void main(String[] args) throws Throwable {
        // The parent is the application loader so that the CLI sees jdk.attach, a tool module.
        ClassLoader loader = new PrivateClassLoader(HeaptapJar.path(), ClassLoader.getSystemClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            Class.forName("io.heaptap.cli.Main", true, loader).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
