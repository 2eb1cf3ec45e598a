package io.heaptap.session;

/**
 * The native agent could not be loaded in this JVM, so nothing can be sampled. HTTP answers it
 * with 503; the MXBean passes it on as a plain {@link IllegalStateException}.
 */
public final class AgentUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public AgentUnavailableException(String message) {
        super(message);
    }
}
