package io.heaptap.it.support;

import java.util.regex.Pattern;

/** The phase lines {@code heaptap start --verbose} prints to stderr: a duration in ms, then the phase's name. */
public final class VerbosePhases {
    public static final Pattern PHASE = Pattern.compile("^heaptap: phase +([0-9.]+) ms  (.+)$", Pattern.MULTILINE);

    private VerbosePhases() {
    }
}
