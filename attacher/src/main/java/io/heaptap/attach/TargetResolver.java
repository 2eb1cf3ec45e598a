package io.heaptap.attach;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;


import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Turns what the user typed (a pid or a main-class name) into one local JVM, or a clear error. */
public final class TargetResolver {
    private TargetResolver() {
    }

    /** A row of {@code heaptap list}. */
    public record ListedJvm(long pid, String mainClass, String javaVersion, String heaptapLoaded) {
    }

    public static List<ListedJvm> list() {
        long self = ProcessHandle.current().pid();
        List<ListedJvm> rows = new ArrayList<>();
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            long pid = parsePid(d.id());
            if (pid == self || pid < 0) {
                continue;
            }
            rows.add(new ListedJvm(pid, mainClassOf(d.displayName()), ProcFiles.javaVersion(pid).orElse("?"),
                    ProcFiles.heaptapLoaded(pid).map(b -> b ? "yes" : "no").orElse("?")));
        }
        return rows;
    }

    public static Target resolve(String spec) {
        String s = spec.trim();
        Target target = s.matches("\\d+") ? byPid(Long.parseLong(s)) : byMainClass(s);
        refuseIfSignalWouldKill(target);
        return target;
    }

    /**
     * Attaching to a JVM whose attach listener is not running yet sends it SIGQUIT, whose default
     * action ends a process. So before attaching, heaptap makes sure the process is a HotSpot JVM
     * (a stale perf-data file or a reused pid can name another process; a non-JVM can be called
     * java) and that it handles SIGQUIT (a JVM started with -Xrs does not), unless its attach
     * listener already runs (then no signal is sent). When /proc cannot tell, the Attach API's
     * word is taken, as before.
     */
    private static void refuseIfSignalWouldKill(Target target) {
        long pid = target.pid();
        if (!ProcFiles.runsHotSpot(pid).orElse(true)) {
            throw new CannotAttachException(pid, "pid " + pid + " is not a HotSpot JVM (libjvm.so is not"
                    + " loaded in it): heaptap does not attach, which would send it SIGQUIT and end it");
        }
        if (!ProcFiles.attachListenerRunning(pid) && !ProcFiles.catchesSigquit(pid).orElse(true)) {
            throw new CannotAttachException(pid, "pid " + pid + " does not handle SIGQUIT (started with -Xrs?):"
                    + " attaching would end it; start it with -javaagent:heaptap.jar to use heaptap");
        }
    }

    private static Target byPid(long pid) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            throw new NoTargetException(pid, "no process with pid " + pid + " is running");
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new NoTargetException(pid, "pid " + pid + " is heaptap itself");
        }
        String owner = process.get().info().user().orElse(null);
        if (owner != null && !ProcFiles.sameUserOrRoot(pid, owner)) {
            throw new CannotAttachException(pid, "pid " + pid + " belongs to user '" + owner
                    + "'; the Attach API only works as the same user: run heaptap as that user, for example "
                    + "sudo -u " + owner + " java -jar heaptap.jar ...");
        }
        if (ProcFiles.hasPerfData(pid)) {
            // What the Attach API would list it by, found without listing every JVM (100-300 ms on a busy machine).
            return new Target(pid, process.get().info().commandLine().orElse(""));
        }
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            if (parsePid(d.id()) == pid) {
                return new Target(pid, d.displayName());
            }
        }
        // Not listed by the Attach API (attach disabled, or no perf data). A java launcher may still
        // be attachable, and the JDK refuses a JVM with attach disabled without signalling it. Any
        // other process is refused: attaching would send it SIGQUIT, whose default action kills it.
        String command = process.get().info().command().orElse("");
        if (command.endsWith("/java")) {
            return new Target(pid, command);
        }
        if (!command.isEmpty()) {
            throw new CannotAttachException(pid, "pid " + pid + " is not a Java virtual machine (" + command + ")");
        }
        throw new CannotAttachException(pid, "pid " + pid + " is not a JVM that heaptap can see: the Attach API "
                + "does not list it (not a JVM, another user's JVM, or one started with -XX:-UsePerfData)");
    }

    private static Target byMainClass(String name) {
        long self = ProcessHandle.current().pid();
        List<Target> matches = new ArrayList<>();
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            long pid = parsePid(d.id());
            if (pid != self && pid >= 0 && matchesMainClass(mainClassOf(d.displayName()), name)) {
                matches.add(new Target(pid, d.displayName()));
            }
        }
        if (matches.isEmpty()) {
            throw new NoTargetException(-1, "no running JVM has the main class '" + name
                    + "' ('heaptap list' shows the JVMs heaptap can see)");
        }
        if (matches.size() > 1) {
            throw new NoTargetException(-1, matches.size() + " JVMs match '" + name + "' (pids "
                    + matches.stream().map(t -> Long.toString(t.pid())).collect(Collectors.joining(", "))
                    + "): give the pid instead");
        }
        return matches.get(0);
    }

    /** The main class (or jar) without arguments. */
    static String mainClassOf(String displayName) {
        String trimmed = displayName == null ? "" : displayName.trim();
        int space = trimmed.indexOf(' ');
        return space < 0 ? trimmed : trimmed.substring(0, space);
    }

    /** Full name, simple name, or jar file name all match. */
    static boolean matchesMainClass(String mainClass, String name) {
        return mainClass.equals(name) || mainClass.endsWith("." + name) || mainClass.endsWith("/" + name)
                || mainClass.equals(name + ".jar") || mainClass.endsWith("/" + name + ".jar");
    }

    private static long parsePid(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
