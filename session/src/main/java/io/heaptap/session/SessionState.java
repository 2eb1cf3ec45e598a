package io.heaptap.session;

/** Where the one capture session of a JVM is. */
public enum SessionState {
    /** Nothing recorded (never started, or reset). */
    IDLE,
    /** Sampling, until the time box ends or stop. */
    RECORDING,
    /** Sampling has ended; the profile of the last capture can still be dumped. */
    STOPPED
}
