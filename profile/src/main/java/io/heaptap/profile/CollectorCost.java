package io.heaptap.profile;

/**
 * What one of the JVM's garbage-collector MXBeans counted during a capture.
 *
 * @param name        the bean's name ("G1 Young Generation", "ZGC Major Cycles", ...)
 * @param kind        what its count and time mean
 * @param collections its collection count during the capture
 * @param timeMillis  its accumulated time during the capture (pause time, or cycle duration for concurrent cycles)
 */
public record CollectorCost(String name, Kind kind, long collections, long timeMillis) {

    /** HotSpot's beans do not all count the same thing; the kind says what a row's figures are. */
    public enum Kind {
        /** Stop-the-world collections: each is a collection, and its time is pause time. */
        PAUSES,
        /** Concurrent cycles (ZGC, Shenandoah): each is a collection, its time runs beside the application. */
        CYCLES,
        /** Pauses inside concurrent cycles (ZGC/Shenandoah "Pauses", G1 remark and cleanup): pause time, not collections. */
        CYCLE_PAUSES;

        /** From the bean's name, the only thing the JDK says about it. */
        public static Kind ofBean(String beanName) {
            if (beanName.contains("Cycles")) {
                return CYCLES;
            }
            if (beanName.contains("Pauses") || beanName.contains("Concurrent")) {
                return CYCLE_PAUSES;
            }
            return PAUSES;
        }

        public boolean countsCollections() {
            return this != CYCLE_PAUSES;
        }

        public boolean isPauseTime() {
            return this != CYCLES;
        }
    }
}
