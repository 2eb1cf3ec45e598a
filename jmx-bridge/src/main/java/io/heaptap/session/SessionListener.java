package io.heaptap.session;

/** Hears when captures start and end, whoever started or ended them (the MXBean's notifications). */
public interface SessionListener {

    void captureStarted(SessionStatus status);

    /** {@code reason}: "time box ended" or "stopped". */
    void captureEnded(SessionStatus status, String reason);
}
