package io.heaptap.nativeagent;

import java.time.Duration;
import java.util.List;

/**
 * The result of one heap walk from the GC roots to a few tracked objects.
 *
 * @param paths        one per object taken, in the order taken (oldest first); not found ones are empty
 * @param cutOff       why the walk stopped early, or {@link CutOff#NONE}
 * @param objects      objects the walk recorded (a count)
 * @param references   references it looked at (a count)
 * @param depthLimited objects not followed because they were --max-depth references from a root
 * @param walk         how long the walk took: the application was paused that long
 * @param resolve      how long naming the steps took afterwards (the application runs meanwhile)
 */
public record PathSearch(List<ReferencePath> paths, CutOff cutOff, long objects, long references, long depthLimited,
                         Duration walk, Duration resolve) {
    public PathSearch {
        paths = List.copyOf(paths);
    }

    /** Why a walk ended before every object was reached. */
    public enum CutOff {
        NONE("not cut off"),
        TIME("cut off: the time limit was reached"),
        OBJECTS("cut off: the object budget was used up"),
        NO_MEMORY("cut off: native memory for the walk ran out");

        private final String text;

        CutOff(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public boolean isCutOff() {
        return cutOff != CutOff.NONE;
    }
}
