package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachPhases;
import io.heaptap.attach.MBeanRefusedException;
import io.heaptap.attach.Target;
import io.heaptap.attach.TargetFailures;
import io.heaptap.attach.TargetResolver;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Syntax.Operand;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.Callable;

/** A command about one target JVM: resolve it, connect to heaptap inside it, translate failures. */
abstract class TargetCommand implements Callable<Integer> {

    static final Operand TARGET = new Operand("<pid|main-class>",
            "Process id, or main class (full or simple name) or jar name of a local JVM.");

    final String target;

    TargetCommand(Arguments args) {
        this.target = args.operand();
    }

    /** Checks that need no target (arguments, --out), done before attaching. */
    void validate() {
    }

    /** What the command does with heaptap's MXBean in the target (commands that override {@link #run(Target)} need none). */
    ExitCode run(AgentConnection connection) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not use JMX");
    }

    /** Where the phases of reaching the target are recorded ({@code start --verbose}); nowhere by default. */
    AttachPhases phases() {
        return AttachPhases.NONE;
    }

    @Override
    public final Integer call() throws Exception {
        AttachPhases phases = phases();
        validate();
        phases.mark("CLI arguments");
        Target t = TargetResolver.resolve(target);
        phases.mark("resolve the target");
        return run(t).code();
    }

    /** Runs the command in the resolved target; by default over JMX (the Attach API alone for {@code start}). */
    ExitCode run(Target t) throws Exception {
        try (AgentConnection connection = AgentConnection.open(t, phases())) {
            return run(connection);
        } catch (MBeanRefusedException e) {
            return withoutJmx(t, e);
        } catch (UndeclaredThrowableException e) {
            // a JMX proxy call failed on the wire: the target exited or the connection broke
            throw TargetFailures.lostOrFailed(t, e.getCause());
        } catch (IllegalStateException e) {
            // the target refused (a capture runs already, another profiler holds the capability, ...)
            throw new HeaptapException(ExitCode.REFUSED, "pid " + t.pid() + " refused: " + e.getMessage());
        }
    }

    /**
     * The target refused heaptap's MBean. Only {@code serve} can go on (HTTP needs no JMX); every
     * other command says so and points there.
     */
    ExitCode withoutJmx(Target t, MBeanRefusedException refused) {
        throw new HeaptapException(ExitCode.CANNOT_ATTACH, refused.getMessage() + ". Commands that use JMX cannot reach it;"
                + " 'heaptap serve " + t.pid() + "' starts the HTTP endpoint, which does not need JMX");
    }

    /** How heaptap introduces itself to the target ("started by ..."). */
    static String client(String command) {
        return "heaptap " + command + " (pid " + ProcessHandle.current().pid() + ", user " + System.getProperty("user.name") + ")";
    }
}
