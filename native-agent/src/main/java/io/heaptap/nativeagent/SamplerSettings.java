package io.heaptap.nativeagent;

import java.time.Duration;
import java.util.Objects;

/**
 * What a capture asks of the sampler, passed to {@link Sampler#start} as one value rather than seven
 * positional numbers. The native side bounds each value again (it never trusts the caller).
 *
 * @param intervalBytes  mean bytes between two samples
 * @param duration       the time box: the native side stops accepting samples then, by itself
 * @param stackDepth     frames kept per sample (1 to {@link NativeLimits#MAX_STACK_DEPTH})
 * @param maxStacks      distinct stacks kept
 * @param liveBudget     objects tracked through weak references; 0: no live tracking this capture
 *                       (objects tracked by earlier captures stay tracked until {@link Sampler#clear})
 * @param largeThreshold objects of at least this many bytes go to the large-object stratum; 0: none
 * @param largeBudget    tracked objects of that stratum at most (G1's humongous objects)
 * @param byteBudget     bytes of tracked objects not yet examined by a whole-heap marking, main stratum; 0: no bound
 * @param largeByteBudget the same for the large stratum
 * @param youngHeld      main stratum: objects younger than the last collection count against the bound too (the
 *                       collector's young collections leave weak references to dead young objects set: generational
 *                       ZGC and Shenandoah); false: they count once they survive one (G1, Parallel, Serial)
 */
public record SamplerSettings(long intervalBytes, Duration duration, int stackDepth, int maxStacks, int liveBudget,
                              long largeThreshold, int largeBudget, long byteBudget, long largeByteBudget, boolean youngHeld) {
    public SamplerSettings {
        Objects.requireNonNull(duration, "duration");
    }

    /** Settings without a byte bound. */
    public SamplerSettings(long intervalBytes, Duration duration, int stackDepth, int maxStacks, int liveBudget, long largeThreshold,
                           int largeBudget) {
        this(intervalBytes, duration, stackDepth, maxStacks, liveBudget, largeThreshold, largeBudget, 0, 0, true);
    }

    /** The same settings with byte bounds for the main and the large stratum, young objects counting from admission. */
    public SamplerSettings withByteBudgets(long main, long large) {
        return withByteBudgets(main, large, true);
    }

    /** The same settings with byte bounds, and whether young objects count against the main one ({@code youngHeld}). */
    public SamplerSettings withByteBudgets(long main, long large, boolean young) {
        return new SamplerSettings(intervalBytes, duration, stackDepth, maxStacks, liveBudget, largeThreshold, largeBudget, main, large,
                young);
    }

    /** Settings without a large-object stratum (its budget at the native minimum of 2). */
    public static SamplerSettings withoutLargeStratum(long intervalBytes, Duration duration, int stackDepth, int maxStacks,
                                                      int liveBudget) {
        return new SamplerSettings(intervalBytes, duration, stackDepth, maxStacks, liveBudget, 0, 2);
    }
}
