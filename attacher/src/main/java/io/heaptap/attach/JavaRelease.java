package io.heaptap.attach;

import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.util.Optional;
import java.util.Properties;

/** The target's Java release, and the refusal of one heaptap cannot run in. */
final class JavaRelease {
    /** The first Java release heaptap supports in a target. */
    static final int MIN_TARGET_FEATURE = 17;

    private JavaRelease() {
    }

    /**
     * The target's feature release, refused below {@link #MIN_TARGET_FEATURE}. The JDK's release
     * file names it without a round trip through the target's attach listener (90-290 ms measured
     * on a loaded machine); its properties are the fallback.
     */
    static int check(VirtualMachine vm, Target target, AttachPhases phases) throws IOException {
        Optional<String> released = ProcFiles.javaVersion(target.pid());
        Properties props = released.isPresent() ? null : vm.getSystemProperties();
        String version = released.orElseGet(() -> props.getProperty("java.version"));
        int feature = featureOf(released.orElseGet(() -> props.getProperty("java.specification.version", "0")));
        phases.mark("read the target's Java version");
        if (feature < MIN_TARGET_FEATURE) {
            throw new CannotAttachException(target.pid(), "pid " + target.pid() + " runs Java "
                    + version + "; heaptap needs Java " + MIN_TARGET_FEATURE + " or newer");
        }
        return feature;
    }

    /** The feature release of a version ("17.0.15", "1.8.0_392", "25-ea", "21"); 0 if there is none. */
    static int featureOf(String version) {
        String s = version.startsWith("1.") ? version.substring(2) : version;
        int end = 0;
        while (end < s.length() && end < 9 && s.charAt(end) >= '0' && s.charAt(end) <= '9') {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(s.substring(0, end));
    }
}
