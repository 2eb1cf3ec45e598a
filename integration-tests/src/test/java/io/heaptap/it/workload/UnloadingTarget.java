package io.heaptap.it.workload;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * On "allocate", allocates from {@link Unloadable} loaded by its own class loader; on "unload",
 * drops that loader and collects until the JVM has unloaded the class, then prints "unloaded".
 */
public final class UnloadingTarget {
    private static ClassLoader loader;

    private UnloadingTarget() {
    }

    public static void main(String[] args) throws Exception {
        URL classes = Path.of(args[0]).toUri().toURL();
        Commands.serve(command -> {
            try {
                if (command.equals("allocate")) {
                    loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
                    Class<?> c = loader.loadClass(Unloadable.class.getName());
                    if (c.getClassLoader() != loader) {
                        throw new IllegalStateException("Unloadable was not loaded by the throw-away loader");
                    }
                    c.getMethod("allocate", int.class).invoke(null, 200_000);
                    System.out.println("allocated");
                } else if (command.equals("unload")) {
                    WeakReference<ClassLoader> gone = new WeakReference<>(loader);
                    loader = null;
                    for (int i = 0; i < 100 && gone.get() != null; i++) {
                        System.gc();
                    }
                    System.out.println(gone.get() == null ? "unloaded" : "still-loaded");
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
