package io.heaptap.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK to run target JVMs on: the one running the tests (17 on the build machine) and, when
 * installed, Temurin 25 under /usr/lib/jvm. {@code HEAPTAP_TEST_JDKS} (colon-separated homes)
 * overrides the list.
 */
public record Jdk(Path home, int feature) {
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    public Path java() {
        return home.resolve("bin/java");
    }

    @Override
    public String toString() {
        return "JDK " + feature;
    }

    public static Jdk current() {
        return of(Path.of(System.getProperty("java.home")));
    }

    public static List<Jdk> all() {
        List<Jdk> jdks = new ArrayList<>();
        String override = System.getenv("HEAPTAP_TEST_JDKS");
        if (override != null && !override.isBlank()) {
            for (String home : override.split(":")) {
                jdks.add(of(Path.of(home)));
            }
            return jdks;
        }
        jdks.add(current());
        latestTemurin().filter(j -> j.feature() != current().feature()).ifPresent(jdks::add);
        return jdks;
    }

    /** The newest JDK of all() (25 when Temurin 25 is installed). */
    public static Jdk newest() {
        return all().stream().max(Comparator.comparingInt(Jdk::feature)).orElseThrow();
    }

    private static java.util.Optional<Jdk> latestTemurin() {
        try (Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
            return homes.filter(p -> p.getFileName().toString().startsWith("temurin-"))
                    .filter(p -> Files.isExecutable(p.resolve("bin/java")))
                    .map(Jdk::of)
                    .max(Comparator.comparingInt(Jdk::feature));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    static Jdk of(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            int feature = m.find() ? Integer.parseInt(m.group(1)) : 0;
            return new Jdk(home, feature);
        } catch (IOException e) {
            throw new IllegalStateException("not a JDK: " + home, e);
        }
    }
}
