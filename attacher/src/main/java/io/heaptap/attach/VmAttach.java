package io.heaptap.attach;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The Attach API's handshake with a target, and its failures told in one line each. */
final class VmAttach {
    private VmAttach() {
    }

    static VirtualMachine attach(Target target) {
        if (ProcFiles.isStopped(target.pid())) {
            // Attaching would wait 10 s for nothing, and the signal it sends would print a thread dump
            // on the target's stdout once it runs again.
            throw new CannotAttachException(target.pid(), "pid " + target.pid() + " is stopped (SIGSTOP, Ctrl-Z or a debugger):"
                    + " heaptap attaches to running JVMs only; resume it (kill -CONT " + target.pid() + ") and try again");
        }
        ProcFiles.foreignAttachSocket(target.pid()).ifPresent(socket -> {
            throw new CannotAttachException(target.pid(), "cannot attach to pid " + target.pid() + ": its attach socket "
                    + socket + " (left by an earlier process with this pid); the Attach API will not use it and the JVM"
                    + " cannot replace it: its owner or root must delete it");
        });
        try {
            return attachWithoutWaitingLong(target);
        } catch (AttachNotSupportedException e) {
            if (TargetFailures.exitsSoon(target)) {
                throw TargetFailures.exited(target);
            }
            String msg = String.valueOf(e.getMessage());
            if (msg.contains("does not support the attach mechanism")) {
                throw new CannotAttachException(target.pid(), "pid " + target.pid()
                        + " was started with -XX:+DisableAttachMechanism; restart it with -javaagent:heaptap.jar to use heaptap");
            }
            throw new CannotAttachException(target.pid(), "cannot attach to pid " + target.pid() + ": " + msg
                    + " (is it a HotSpot JVM run by the same user?)");
        } catch (IOException e) {
            if (TargetFailures.exitsSoon(target)) {
                throw TargetFailures.exited(target);
            }
            throw new CannotAttachException(target.pid(), "cannot attach to pid " + target.pid() + ": "
                    + TargetFailures.firstLine(e) + " (is it a HotSpot JVM run by the same user?)");
        }
    }

    static void detachQuietly(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target may have exited; nothing to release then
        }
    }

    /**
     * The JDK's attach to a JVM whose attach listener is not up yet signals it, then sleeps 100 ms,
     * 200 ms more, 300 ms more... before looking for the listener's socket: a listener that came up
     * after 5 ms costs 100 ms, one that came up after 110 ms (a busy target) costs 300 ms. So while
     * the JDK's attach waits on a thread of its own, this one looks for the socket every 2 ms and
     * attaches through it as soon as it is there (an attach to a running listener sends no signal
     * and does not sleep). The JDK's attach, once it wakes, is detached.
     */
    private static VirtualMachine attachWithoutWaitingLong(Target target) throws AttachNotSupportedException, IOException {
        String pid = Long.toString(target.pid());
        if (ProcFiles.attachListenerRunning(target.pid())) {
            return VirtualMachine.attach(pid);
        }
        CompletableFuture<VirtualMachine> jdkAttach = new CompletableFuture<>();
        Thread signalling = new Thread(() -> {
            try {
                jdkAttach.complete(VirtualMachine.attach(pid));
            } catch (Throwable t) {
                jdkAttach.completeExceptionally(t);
            }
        }, "heaptap-attach");
        signalling.setDaemon(true);
        signalling.start();
        while (true) {
            try {
                return jdkAttach.get(2, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                if (ProcFiles.attachListenerRunning(target.pid())) {
                    VirtualMachine vm = VirtualMachine.attach(pid);
                    jdkAttach.thenAccept(VmAttach::detachQuietly);
                    return vm;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AttachNotSupportedException a) {
                    throw a;
                }
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while attaching");
            }
        }
    }
}
