package io.heaptap.attach;

import java.util.Optional;

/**
 * An agent of another heaptap version already loaded in the target. A JVM cannot unload an agent:
 * the classes and the native library of the first heaptap that attached stay until the JVM exits,
 * and a later heaptap.jar loaded into it runs that first version's code. The CLI and that agent may
 * then disagree on the MBean's members and on the arguments passed with the Attach API, which used to
 * show as obscure JMX errors halfway through a command. So the CLI refuses at once, in one line
 * that says what happened and what to do, as a {@link CannotAttachException}.
 */
public final class VersionSkew {
    private VersionSkew() {
    }

    /**
     * The refusal when the agent's version differs from the CLI's; empty when they are the same.
     *
     * @param agentVersion the MBean's AgentVersion, or null if the agent could not say (older than the attribute)
     */
    public static Optional<CannotAttachException> check(long pid, String agentVersion, String cliVersion) {
        if (cliVersion.equals(agentVersion)) {
            return Optional.empty();
        }
        boolean known = agentVersion != null && !agentVersion.isBlank();
        return Optional.of(new CannotAttachException(pid, "pid " + pid + " already runs heaptap's agent "
                + (known ? agentVersion : "of an unknown version") + " (loaded earlier; it stays until the JVM exits) and this CLI"
                + " is heaptap " + cliVersion + ": they do not share a protocol; use "
                + (known ? "heaptap " + agentVersion + "'s CLI" : "the heaptap CLI that loaded it") + " with this JVM, or restart the JVM"));
    }
}
