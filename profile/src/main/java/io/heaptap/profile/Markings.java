package io.heaptap.profile;

import java.time.Instant;

/**
 * The liveness-proof clock: whole-heap markings (full collections, G1 concurrent cycles, ZGC and
 * Shenandoah cycles, heaptap's forced collections) seen since live tracking began. Only a marking
 * proves an object live; young collections prove nothing about the old generation.
 *
 * @param completed      markings completed since live tracking began (a count)
 * @param inWindow       markings completed during the capture or watch this view covers (a count)
 * @param forced         of {@code inWindow}, collections heaptap forced (a count)
 * @param lastCompletedAt when the last marking completed, null if none did
 * @param limitation     what this collector's clock cannot see, empty when nothing
 * @param horizonMillis  how old the proof is: objects allocated more than this long ago have been examined
 *                       by a completed marking; -1 when nothing is proven yet
 */
public record Markings(long completed, long inWindow, long forced, Instant lastCompletedAt, String limitation,
                       long horizonMillis) {
    public static final Markings NONE = new Markings(0, 0, 0, null, "", -1);

    /** "3 whole-heap markings (1 forced) during the capture, the last at ..." in words. */
    public String describe(String window) {
        StringBuilder sb = new StringBuilder();
        sb.append(inWindow).append(" whole-heap marking").append(inWindow == 1 ? "" : "s");
        if (forced > 0) {
            sb.append(" (").append(forced).append(" forced by heaptap)");
        }
        sb.append(" during the ").append(window);
        sb.append(lastCompletedAt == null ? ", none since tracking began" : ", the last completed at " + lastCompletedAt);
        if (!limitation.isEmpty()) {
            sb.append("; ").append(limitation);
        }
        return sb.toString();
    }
}
