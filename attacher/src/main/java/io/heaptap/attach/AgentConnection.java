package io.heaptap.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import io.heaptap.agent.AgentReply;
import io.heaptap.agent.CaptureRequest;
import io.heaptap.agent.StopRequest;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.http.HttpEndpoint;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.launcher.AgentLauncher;
import io.heaptap.launcher.HeaptapJar;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.NativeLibrary;
import io.heaptap.session.Version;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A connection to heaptap inside a target JVM: attach with the Attach API, load heaptap.jar if
 * it is not there yet, then talk to the heaptap MXBean over the JVM's local JMX connector, the same
 * door JConsole uses. The Attach API connection is closed once the agent is loaded.
 */
public final class AgentConnection implements AutoCloseable {
    /** The first Java release heaptap supports in a target. */
    public static final int MIN_TARGET_FEATURE = 17;
    /** How long a target whose connection broke may take to be gone before heaptap calls it exited. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private final Target target;
    private final JMXConnector connector;
    private final HeaptapMXBean heaptap;
    private final int targetFeature;

    private AgentConnection(Target target, JMXConnector connector, HeaptapMXBean heaptap, int targetFeature) {
        this.target = target;
        this.connector = connector;
        this.heaptap = heaptap;
        this.targetFeature = targetFeature;
    }

    public static AgentConnection open(Target target) {
        return open(target, AttachPhases.NONE);
    }

    public static AgentConnection open(Target target, AttachPhases phases) {
        CompletableFuture<NativeLibrary.Extracted> library = extractAhead(target);
        VirtualMachine vm = attachOrRelease(target, library);
        phases.mark("attach handshake");
        try {
            int feature = checkJavaVersion(vm, target, phases);
            JMXServiceURL url = new JMXServiceURL(vm.startLocalManagementAgent());
            phases.mark("JMX agent start in the target");
            // The CLI's half of the JMX connection (RMI classes, handshake) overlaps the target's
            // agent load on a first attach, instead of waiting for it.
            CompletableFuture<JMXConnector> connecting = CompletableFuture.supplyAsync(() -> connect(url));
            boolean loadedNow = !ProcFiles.heaptapLoaded(target.pid()).orElse(true);
            if (loadedNow) {
                loadAgent(vm, target, library, "", phases);
            }
            JMXConnector connector = join(connecting);
            MBeanServerConnection server = connector.getMBeanServerConnection();
            boolean registered = server.isRegistered(MBeanRegistration.objectName());
            phases.mark("JMX connect (what was left of it)");
            if (!registered) {
                if (!loadedNow) {
                    Properties now = vm.getSystemProperties();
                    // (registered meanwhile: a capture's start registers it just after sampling began)
                    if (now.getProperty(MBeanRegistration.REGISTERED_PROPERTY) != null
                            && !server.isRegistered(MBeanRegistration.objectName())) {
                        System.err.println("heaptap: the heaptap MBean was unregistered in pid " + target.pid()
                                + " (by the application?); registering it again");
                    }
                    loadAgent(vm, target, library, "", phases);
                }
                if (!server.isRegistered(MBeanRegistration.objectName())) {
                    String error = vm.getSystemProperties().getProperty(AgentLauncher.ERROR_PROPERTY);
                    connector.close();
                    throw new MBeanRefusedException("pid " + target.pid() + " did not register heaptap's MBean"
                            + (error == null ? "" : ": " + error));
                }
            }
            HeaptapMXBean bean = JMX.newMXBeanProxy(server, MBeanRegistration.objectName(), HeaptapMXBean.class);
            if (!loadedNow) {
                refuseAnotherVersion(target, connector, bean);  // loaded now: this jar's agent, no round trip needed
            }
            return new AgentConnection(target, connector, bean, feature);
        } catch (IOException e) {
            throw lostOrFailed(target, e);
        } finally {
            detachQuietly(vm);
            release(library);
            phases.mark("detach");
        }
    }

    /** An agent loaded earlier by another heaptap version: refused in one line (VersionSkew). */
    private static void refuseAnotherVersion(Target target, JMXConnector connector, HeaptapMXBean bean) throws IOException {
        String agentVersion;
        try {
            agentVersion = bean.getAgentVersion();
        } catch (UndeclaredThrowableException e) {
            if (e.getCause() instanceof IOException lost) {
                throw lost;
            }
            agentVersion = null;  // an agent older than the attribute (AttributeNotFoundException)
        }
        Optional<HeaptapException> skew = VersionSkew.check(target.pid(), agentVersion, Version.current());
        if (skew.isPresent()) {
            connector.close();
            throw skew.get();
        }
    }

    private static VirtualMachine attachOrRelease(Target target, CompletableFuture<NativeLibrary.Extracted> library) {
        try {
            return attach(target);
        } catch (RuntimeException e) {
            release(library);
            throw e;
        }
    }

    /**
     * The target's feature release, refused below {@link #MIN_TARGET_FEATURE}. The JDK's release
     * file names it without a round trip through the target's attach listener (90-290 ms measured
     * on a loaded machine); its properties are the fallback.
     */
    private static int checkJavaVersion(VirtualMachine vm, Target target, AttachPhases phases) throws IOException {
        Optional<String> released = ProcFiles.javaVersion(target.pid());
        Properties props = released.isPresent() ? null : vm.getSystemProperties();
        String version = released.orElseGet(() -> props.getProperty("java.version"));
        int feature = featureOf(released.orElseGet(() -> props.getProperty("java.specification.version", "0")));
        phases.mark("read the target's Java version");
        if (feature < MIN_TARGET_FEATURE) {
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " runs Java "
                    + version + "; heaptap needs Java " + MIN_TARGET_FEATURE + " or newer");
        }
        return feature;
    }

    /**
     * What a capture started through the agent's arguments reports: when sampling had begun and
     * when the first sample came (if asked), as {@link System#nanoTime()} values of the target, which
     * on Linux reads the same monotonic clock as this process.
     */
    public record Started(long startedNanos, Instant startedAt, Optional<Long> firstSampleNanos) {
    }

    /**
     * Starts a capture with the Attach API alone: the request rides on the {@code loadAgent} that
     * loads heaptap.jar (again, if it is there already), and the answer comes back as a system
     * property over the same connection. No JMX agent is started in the target, so sampling begins
     * without waiting for one; the MXBean is registered in the target afterwards, for the commands
     * that use JMX. A refusal is a {@link HeaptapException} with the exit code the JMX path gives.
     *
     * @param firstSampleWait with {@code request.reportFirstSample()}, how long to poll for the first sample
     */
    public static Started startCapture(Target target, CaptureRequest request, Duration firstSampleWait, AttachPhases phases) {
        CompletableFuture<NativeLibrary.Extracted> library = extractAhead(target);
        VirtualMachine vm = attachOrRelease(target, library);
        phases.mark("attach handshake");
        try {
            checkJavaVersion(vm, target, phases);
            boolean loadedNow = !ProcFiles.heaptapLoaded(target.pid()).orElse(true);
            loadAgent(vm, target, library, request.encode(), phases, null);
            Properties props = vm.getSystemProperties();
            String replyText = props.getProperty(AgentReply.property(request.reply()));
            if (replyText == null) {
                String error = props.getProperty(AgentLauncher.ERROR_PROPERTY);
                throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " did not start heaptap"
                        + (error == null ? " (no answer from its agent)" : ": " + error));
            }
            AgentReply reply = decodeReply(target, replyText);
            switch (reply.outcome()) {
                case STARTED -> { }
                case REFUSED -> throw new HeaptapException(ExitCode.REFUSED, "pid " + target.pid() + " refused: " + reply.message());
                case BAD_OPTIONS -> throw new HeaptapException(ExitCode.USAGE, reply.message());
                case FAILED -> throw new HeaptapException(ExitCode.INTERNAL, "pid " + target.pid() + " failed to start the capture: "
                        + reply.message() + " (please report this with the command you ran)");
            }
            Optional<Long> first = request.reportFirstSample()
                    ? firstSample(vm, request.reply(), firstSampleWait) : Optional.empty();
            // The target's clock places its own moments among this process's phases.
            phases.markAt(loadedNow ? "heaptap.jar load and capture start (in the target)"
                    : "capture start (in the target; heaptap was loaded already)", reply.startedNanos());
            first.ifPresent(at -> phases.markAt("first sample in the target", at));
            phases.mark(!request.reportFirstSample() || first.isPresent() ? "answer read back (Attach API round trips)"
                    : "first sample: none within " + firstSampleWait.toMillis() + " ms (does the target allocate?)");
            return new Started(reply.startedNanos(), reply.startedAt(), first);
        } catch (IOException e) {
            throw lostOrFailed(target, e);
        } finally {
            detachQuietly(vm);
            release(library);
            phases.mark("detach");
        }
    }

    private static AgentReply decodeReply(Target target, String text) {
        try {
            return AgentReply.decode(text);
        } catch (IllegalArgumentException e) {
            throw new HeaptapException(ExitCode.INTERNAL, "pid " + target.pid() + " answered in a way this heaptap cannot read ("
                    + e.getMessage() + "): does it run another heaptap version?");
        }
    }

    /**
     * Stops a capture {@link #startCapture} started, through the Attach API, if it still runs; for a
     * CLI that cannot follow the capture it started. Best effort: a target that is gone or refuses
     * has nothing more to stop, and the CLI's own error is the one to report.
     */
    public static void stopCapture(Target target, Started started, String reason) {
        if (!ProcessHandle.of(target.pid()).map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
            try {
                vm.loadAgent(heaptapJar().toString(), new StopRequest(started.startedAt(), reason).encode());
            } finally {
                detachQuietly(vm);
            }
        } catch (IOException | AttachNotSupportedException | AgentLoadException | AgentInitializationException ignored) {
            // nothing more to stop
        }
    }

    /** Polls the target's properties (one Attach API round trip every 2 ms) for its first-sample time. */
    private static Optional<Long> firstSample(VirtualMachine vm, String reply, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < deadline) {
            String value = vm.getSystemProperties().getProperty(AgentReply.firstSampleProperty(reply));
            if (value != null) {
                return value.matches("[0-9]{1,19}") ? Optional.of(Long.parseLong(value)) : Optional.empty();
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static JMXConnector connect(JMXServiceURL url) {
        try {
            return JMXConnectorFactory.connect(url);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JMXConnector join(CompletableFuture<JMXConnector> connecting) throws IOException {
        try {
            return connecting.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw e;
        }
    }

    private static void detachQuietly(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target may have exited; nothing to release then
        }
    }

    private static VirtualMachine attach(Target target) {
        if (ProcFiles.isStopped(target.pid())) {
            // Attaching would wait 10 s for nothing, and the signal it sends would print a thread dump
            // on the target's stdout once it runs again.
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " is stopped (SIGSTOP, Ctrl-Z or a debugger):"
                    + " heaptap attaches to running JVMs only; resume it (kill -CONT " + target.pid() + ") and try again");
        }
        try {
            return attachWithoutWaitingLong(target);
        } catch (AttachNotSupportedException e) {
            if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
                throw exited(target);
            }
            String msg = String.valueOf(e.getMessage());
            if (msg.contains("does not support the attach mechanism")) {
                throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid()
                        + " was started with -XX:+DisableAttachMechanism; restart it with -javaagent:heaptap.jar to use heaptap");
            }
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "cannot attach to pid " + target.pid() + ": " + msg
                    + " (is it a HotSpot JVM run by the same user?)");
        } catch (IOException e) {
            if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
                throw exited(target);
            }
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "cannot attach to pid " + target.pid() + ": " + firstLine(e)
                    + " (is it a HotSpot JVM run by the same user?)");
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
                    jdkAttach.thenAccept(AgentConnection::detachQuietly);
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

    /**
     * Loads libheaptap.so as a JVMTI agent (unless it is mapped already), then heaptap.jar. Loading
     * the library from here rather than with System.load inside the target keeps JDK 24+ from
     * printing a restricted-method warning into the application's stderr.
     */
    private static void loadAgent(VirtualMachine vm, Target target, CompletableFuture<NativeLibrary.Extracted> library,
                                  String agentArgs, AttachPhases phases) throws IOException {
        loadAgent(vm, target, library, agentArgs, phases, "heaptap.jar load (class loading and set-up in the target)");
    }

    /**
     * Extracts libheaptap.so on another thread, beside the attach handshake, unless the target has
     * it mapped already (then the future holds null). Concurrent first attaches all name the same
     * file, which the JVM maps once. Whoever starts it calls {@link #release} when done.
     */
    private static CompletableFuture<NativeLibrary.Extracted> extractAhead(Target target) {
        if (ProcFiles.heaptapLoaded(target.pid()).orElse(false)) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return extract();
            } catch (NativeAgentException | HeaptapException e) {
                throw new CompletionException(e);
            }
        });
    }

    private static NativeLibrary.Extracted extracted(CompletableFuture<NativeLibrary.Extracted> library) throws NativeAgentException {
        try {
            NativeLibrary.Extracted lib = library.join();
            return lib != null ? lib : extract();
        } catch (CompletionException e) {
            if (e.getCause() instanceof NativeAgentException n) {
                throw n;
            }
            if (e.getCause() instanceof HeaptapException h) {
                throw h;
            }
            throw e;
        }
    }

    /**
     * Puts the library into the CLI's temporary folder (java.io.tmpdir). That folder full or
     * read-only is a problem of the host, not a bug of heaptap's: exit 4 with the folder named.
     */
    private static NativeLibrary.Extracted extract() throws NativeAgentException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            return NativeLibrary.extract(tmp);
        } catch (NativeAgentException e) {
            if (e.getCause() instanceof IOException io) {
                throw new HeaptapException(ExitCode.CANNOT_ATTACH, "cannot write heaptap's native agent into " + tmp
                        + " (java.io.tmpdir, heaptap's temporary folder): " + why(io)
                        + "; free space there or make it writable, or run heaptap with -Djava.io.tmpdir=<another folder>");
            }
            throw e;
        }
    }

    private static String why(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("No space left")) {
            return "it is full";
        }
        if (m.contains("Read-only file system")) {
            return "it is read-only";
        }
        return e instanceof java.nio.file.AccessDeniedException ? "permission denied" : m;
    }

    /** Deletes a one-off copy of the library once the attach is over (loaded or not). */
    private static void release(CompletableFuture<NativeLibrary.Extracted> library) {
        library.thenAccept(lib -> {
            if (lib != null) {
                lib.loaded();
            }
        });
    }

    /** As above; {@code jarPhase} names the phase that ends with heaptap.jar's load (null: the caller marks it). */
    private static void loadAgent(VirtualMachine vm, Target target, CompletableFuture<NativeLibrary.Extracted> library,
                                  String agentArgs, AttachPhases phases, String jarPhase) throws IOException {
        try {
            if (!ProcFiles.heaptapLoaded(target.pid()).orElse(false)) {
                NativeLibrary.Extracted lib = extracted(library);
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
            throw new HeaptapException(ExitCode.INTERNAL, e.getMessage());
        } catch (AgentLoadException | AgentInitializationException e) {
            // The JDK calls a load that got no answer a refusal; it is one when the target lives on.
            if (String.valueOf(e.getMessage()).contains("did not respond") && ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
                throw exited(target);
            }
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " refused heaptap's agent: "
                    + e.getMessage() + ". If it runs with -XX:-EnableDynamicAgentLoading, start it with "
                    + "-XX:+EnableDynamicAgentLoading or -javaagent:heaptap.jar");
        }
    }

    /**
     * Where a target serves: its URL, and the owner-only file with the token it made (null when the
     * token was given), as the endpoint publishes them in {@value HttpEndpoint#URL_PROPERTY} and
     * {@value HttpEndpoint#TOKEN_FILE_PROPERTY}.
     */
    public record Served(String url, String tokenFile) {
    }

    /**
     * Starts the HTTP endpoint through the agent's arguments ({@code serve,port=...}), for a
     * target whose MBeanServer refuses heaptap's MBean, and says where it serves.
     */
    public static Served serveWithoutJmx(Target target, String serveArguments) {
        CompletableFuture<NativeLibrary.Extracted> library = extractAhead(target);
        VirtualMachine vm = attachOrRelease(target, library);
        try {
            loadAgent(vm, target, library, serveArguments, AttachPhases.NONE);
            Properties props = vm.getSystemProperties();
            String url = props.getProperty(HttpEndpoint.URL_PROPERTY);
            if (url == null) {
                String error = props.getProperty(AgentLauncher.ERROR_PROPERTY);
                throw new HeaptapException(ExitCode.REFUSED, "pid " + target.pid() + " could not serve"
                        + (error == null ? "" : ": " + error));
            }
            return new Served(url, props.getProperty(HttpEndpoint.TOKEN_FILE_PROPERTY));
        } catch (IOException e) {
            throw lostOrFailed(target, e);
        } finally {
            detachQuietly(vm);
            release(library);
        }
    }

    /** heaptap.jar itself (the CLI's class loader sees the launcher's classes). */
    public static Path heaptapJar() {
        return HeaptapJar.path().toAbsolutePath();
    }

    /** The feature release of a version ("17.0.15", "1.8.0_392", "25-ea", "21"); 0 if there is none. */
    static int featureOf(String version) {
        String s = version.startsWith("1.") ? version.substring(2) : version;
        int end = 0;
        while (end < s.length() && end < 9 && s.charAt(end) >= '0' && s.charAt(end) <= '9') {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(s.substring(0, end));
    }

    /**
     * A failure talking to the target: it exited (or is exiting: a JVM closes its connections
     * before its process ends, so it is given {@link #EXIT_GRACE} to be gone), or something else
     * broke. Either way one line, without the JDK's nested exception text.
     */
    public static HeaptapException lostOrFailed(Target target, Throwable e) {
        if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
            return exited(target);
        }
        return new HeaptapException(ExitCode.CANNOT_ATTACH, "lost the connection to pid " + target.pid() + ": " + firstLine(e));
    }

    private static HeaptapException exited(Target target) {
        return new HeaptapException(ExitCode.TARGET_EXITED, "the target JVM (pid " + target.pid() + ") exited");
    }

    /** The innermost cause's message, first line only (RMI nests whole exceptions in its messages). */
    static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }

    public Target target() {
        return target;
    }

    public HeaptapMXBean heaptap() {
        return heaptap;
    }

    /** The running capture's progress in one round trip; a broken connection fails as a proxy call does. */
    public CaptureProgress progress() {
        try {
            AttributeList answer = connector.getMBeanServerConnection().getAttributes(MBeanRegistration.objectName(),
                    CaptureProgress.ATTRIBUTES);
            return CaptureProgress.of(answer).orElseThrow(() -> lostOrFailed(target,
                    new IOException("heaptap's MBean did not answer " + String.join(", ", CaptureProgress.ATTRIBUTES))));
        } catch (IOException | JMException e) {
            throw lostOrFailed(target, e);
        }
    }

    public int targetFeature() {
        return targetFeature;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException ignored) {
            // the target may be gone
        }
    }
}
