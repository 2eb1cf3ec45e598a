package io.heaptap.profile.leak;

/** What a site's live set looks like over the watch. docs/leaks.md gives the rules. */
public enum Verdict {
    /** Live bytes grow and the oldest objects stay: ages grow with the wall clock. */
    LEAK_SUSPECT("leak suspect"),
    /** Objects survive collections, but the oldest keep being replaced: ages stay well below the time watched. */
    CACHE_LIKE("cache-like"),
    /** Held and not growing: the oldest objects stay, the live bytes do not grow. */
    STABLE("stable"),
    /** Dies young: most live objects have not survived a collection, and little of what was allocated is live. */
    TRANSIENT("transient"),
    /** No proof yet: too few whole-heap markings in the site's window to tell kept objects from garbage. */
    UNDECIDED("undecided");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** "leak suspect", "cache-like", ...: the word shown to users and used in JSON. */
    public String label() {
        return label;
    }
}
