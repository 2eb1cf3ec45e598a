package io.heaptap.profile;

/**
 * The JVM a profile was taken from.
 *
 * @param pid         process id
 * @param javaVersion {@code java.version} of the target
 * @param vmName      {@code java.vm.name}
 * @param mainCommand the target's command line as the JVM reports it ({@code sun.java.command})
 */
public record TargetInfo(long pid, String javaVersion, String vmName, String mainCommand) {
}
