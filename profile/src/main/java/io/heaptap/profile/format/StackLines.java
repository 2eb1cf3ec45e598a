package io.heaptap.profile.format;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;

import java.util.ArrayList;
import java.util.List;

/**
 * A site's stack as flame-graph formats want it: outermost frame first, a "[truncated]" root when
 * the stack was cut, and the allocated type as the leaf (users ask to see it in flame graphs).
 */
final class StackLines {
    static final Frame TRUNCATED = Frame.synthetic("[truncated]");
    static final Frame NO_STACK = Frame.synthetic("[no-stack]");

    private StackLines() {
    }

    /** Frames root first; the last element is the allocated type as a synthetic frame. */
    static List<Frame> rootFirstWithType(AllocationSite site) {
        List<Frame> frames = new ArrayList<>(site.stack().size() + 2);
        if (site.truncated()) {
            frames.add(TRUNCATED);
        }
        if (site.stack().isEmpty()) {
            frames.add(NO_STACK);
        }
        for (int i = site.stack().size() - 1; i >= 0; i--) {
            frames.add(site.stack().get(i));
        }
        frames.add(Frame.synthetic(site.type()));
        return frames;
    }
}
