package io.heaptap.it.support;

import io.heaptap.testing.CallPaths;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the build put what the tests need (set by failsafe in integration-tests/pom.xml). */
public final class Paths {
    private Paths() {
    }

    public static Path heaptapJar() {
        return required("heaptap.jar");
    }

    public static Path testClasses() {
        return required("heaptap.testClasses");
    }

    /** A target JVM's class path: this module's workloads, and the workloads they share with other modules' tests. */
    public static String workloadClassPath() {
        try {
            Path shared = Path.of(CallPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return testClasses() + File.pathSeparator + shared;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Path asyncProfilerJar() {
        return required("heaptap.asyncProfilerJar");
    }

    /** A fresh folder for one test's files. */
    public static Path workDir(String name) {
        try {
            Path base = Path.of(System.getProperty("heaptap.workDir", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set: run the tests with Maven");
        }
        return Path.of(value);
    }
}
