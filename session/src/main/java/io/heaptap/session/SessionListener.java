package io.heaptap.session;

import io.heaptap.profile.leak.LeakReport;

/** Hears when captures start and end, whoever started or ended them, and of leak suspects (the MXBean's notifications). */
public interface SessionListener {

    void captureStarted(SessionStatus status);

    /** {@code reason}: "time box ended" or "stopped". */
    void captureEnded(SessionStatus status, String reason);

    /** A leak watch found a new leak suspect (once per site and watch). */
    default void leakSuspected(long pid, LeakReport.RankedSite site) {
    }
}
