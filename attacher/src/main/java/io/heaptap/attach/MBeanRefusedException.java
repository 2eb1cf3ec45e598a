package io.heaptap.attach;

/**
 * heaptap's agent loaded, but the target's MBeanServer refused heaptap's MXBean (a custom
 * MBeanServerBuilder, a security policy): the JMX door is shut. The HTTP endpoint does not need
 * JMX, so {@code heaptap serve} can still open the other door.
 */
public final class MBeanRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MBeanRefusedException(String message) {
        super(message);
    }
}
