package io.heaptap.profile;

import java.nio.file.Path;

/**
 * The JVM a profile was taken from.
 *
 * @param pid         process id
 * @param javaVersion {@code java.version} of the target
 * @param vmName      {@code java.vm.name}
 * @param mainCommand the target's command line as the JVM reports it ({@code sun.java.command})
 */
public record TargetInfo(long pid, String javaVersion, String vmName, String mainCommand) {

    /**
     * The name a fleet knows this JVM by when nobody gave one: the main class, or the jar's file name
     * without {@code .jar}, from {@code sun.java.command} (never its arguments, which may hold secrets);
     * "java" if none.
     */
    public String serviceName() {
        String command = mainCommand == null ? "" : mainCommand.strip();
        if (command.isEmpty()) {
            return "java";
        }
        String first = command.split("\\s+", 2)[0];
        if (first.endsWith(".jar")) {
            String name = Path.of(first).getFileName().toString();
            return name.substring(0, name.length() - ".jar".length());
        }
        return first;
    }
}
