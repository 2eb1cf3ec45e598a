package io.heaptap.profile.census;

/**
 * The class census a dump with a forced collection ({@code dump --gc}) carries: taken right after that
 * collection, naming the {@link CensusFormat#DEFAULT_CLASSES} classes with the most bytes and the rest as
 * one row, so a dump's size does not grow with the loaded classes. A census that could not be taken
 * (heaptap's heap budget, the JVM refused it, the forced collection did not run) is not an error of the
 * dump: the dump says why instead.
 *
 * @param census  the census, or null when none was taken
 * @param refusal why none was taken; empty when one was
 */
public record DumpCensus(ClassCensus census, String refusal) {
    /** Classes a dump names; the rest is one row. */
    public static final int TOP = CensusFormat.DEFAULT_CLASSES;

    public DumpCensus {
        refusal = refusal == null ? "" : refusal;
        if (census == null && refusal.isEmpty()) {
            throw new IllegalArgumentException("a dump's census is either taken or refused with a reason");
        }
    }

    public static DumpCensus of(ClassCensus census) {
        return new DumpCensus(census, "");
    }

    public static DumpCensus refused(String why) {
        return new DumpCensus(null, why == null || why.isBlank() ? "no reason given" : why);
    }

    public boolean taken() {
        return census != null;
    }
}
