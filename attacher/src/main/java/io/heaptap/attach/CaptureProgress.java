package io.heaptap.attach;

import java.util.Optional;

import javax.management.Attribute;
import javax.management.AttributeList;

/**
 * What one progress tick of a capture shows, read in one JMX round trip (one getAttributes call
 * for three attributes) instead of three. Not the Status composite: reading that computes every
 * status figure in the target, a decoded profile among them (at most once a second), which a tick
 * every 200 ms must not cost the target.
 *
 * @param recording      the capture still runs (State "recording")
 * @param timeLeftMillis until its time box ends
 * @param samples        taken so far
 */
public record CaptureProgress(boolean recording, long timeLeftMillis, long samples) {
    static final String[] ATTRIBUTES = {"State", "TimeLeftMillis", "Samples"};

    /** The progress in getAttributes' answer; empty if an attribute is missing from it (it could not be read). */
    static Optional<CaptureProgress> of(AttributeList answer) {
        Object state = null;
        Long left = null;
        Long samples = null;
        for (Attribute a : answer.asList()) {
            switch (a.getName()) {
                case "State" -> state = a.getValue();
                case "TimeLeftMillis" -> left = a.getValue() instanceof Long l ? l : null;
                case "Samples" -> samples = a.getValue() instanceof Long l ? l : null;
                default -> { }
            }
        }
        if (state == null || left == null || samples == null) {
            return Optional.empty();
        }
        return Optional.of(new CaptureProgress("recording".equals(state), left, samples));
    }
}
