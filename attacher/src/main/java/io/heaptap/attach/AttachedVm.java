package io.heaptap.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;

import io.heaptap.launcher.HeaptapJar;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.NativeLibrary;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * One Attach API connection to a target, with heaptap's native library extracted beside the
 * handshake. {@link #with} is the one way in: attach, do the work, then always detach and delete the
 * library copy, a broken connection told as an exit or a loss ({@link TargetFailures}).
 */
final class AttachedVm {
    /** What is done while attached. */
    interface Work<T> {
        T in(AttachedVm attached) throws IOException;
    }

    /** The phase that ends with heaptap.jar's load, when nothing else happens in it. */
    static final String JAR_PHASE = "heaptap.jar load (class loading and set-up in the target)";

    private final Target target;
    private final VirtualMachine vm;
    private final LibraryCopy library;
    private final AttachPhases phases;

    private AttachedVm(Target target, VirtualMachine vm, LibraryCopy library, AttachPhases phases) {
        this.target = target;
        this.vm = vm;
        this.library = library;
        this.phases = phases;
    }

    static <T> T with(Target target, AttachPhases phases, Work<T> work) {
        LibraryCopy library = LibraryCopy.ahead(target);
        VirtualMachine vm;
        try {
            vm = VmAttach.attach(target);
        } catch (RuntimeException e) {
            library.release();
            throw e;
        }
        phases.mark("attach handshake");
        try {
            return work.in(new AttachedVm(target, vm, library, phases));
        } catch (IOException e) {
            throw TargetFailures.lostOrFailed(target, e);
        } finally {
            VmAttach.detachQuietly(vm);
            library.release();
            phases.mark("detach");
        }
    }

    VirtualMachine vm() {
        return vm;
    }

    Properties systemProperties() throws IOException {
        return vm.getSystemProperties();
    }

    /** The target's Java feature release, refused below {@link JavaRelease#MIN_TARGET_FEATURE}. */
    int checkJavaRelease() throws IOException {
        return JavaRelease.check(vm, target, phases);
    }

    /**
     * Loads libheaptap.so as a JVMTI agent (unless it is mapped already), then heaptap.jar with
     * {@code agentArgs}. Loading the library from here rather than with System.load inside the target
     * keeps JDK 24+ from printing a restricted-method warning into the application's stderr.
     *
     * @param jarPhase names the phase that ends with heaptap.jar's load (null: the caller marks it)
     */
    void loadAgent(String agentArgs, String jarPhase) throws IOException {
        try {
            if (!ProcFiles.heaptapLoaded(target.pid()).orElse(false)) {
                NativeLibrary.Extracted lib = library.get();
                try {
                    vm.loadAgentPath(lib.path().toString(), null);
                } finally {
                    lib.loaded();
                }
                phases.mark("native agent load");
            }
            vm.loadAgent(heaptapJar().toString(), agentArgs);
            if (jarPhase != null) {
                phases.mark(jarPhase);
            }
        } catch (NativeAgentException e) {
            throw new AgentFailedException(target.pid(), e.getMessage());
        } catch (AgentLoadException | AgentInitializationException e) {
            // The JDK calls a load that got no answer a refusal; it is one when the target lives on.
            if (String.valueOf(e.getMessage()).contains("did not respond") && TargetFailures.exitsSoon(target)) {
                throw TargetFailures.exited(target);
            }
            throw new CannotAttachException(target.pid(), "pid " + target.pid() + " refused heaptap's agent: "
                    + e.getMessage() + ". If it runs with -XX:-EnableDynamicAgentLoading, start it with "
                    + "-XX:+EnableDynamicAgentLoading or -javaagent:heaptap.jar");
        }
    }

    /** heaptap.jar itself (the CLI's class loader sees the launcher's classes). */
    static Path heaptapJar() {
        return HeaptapJar.path().toAbsolutePath();
    }
}
