package io.heaptap.nativeagent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libheaptap.so from inside heaptap.jar. The library is copied into a fresh private
 * temporary folder, loaded, and deleted again right away (Linux keeps a loaded file mapped), so
 * nothing is left behind in the target's temp directory and nobody can swap the file in between.
 */
final class NativeLibrary {
    private NativeLibrary() {
    }

    /** Folder name of this platform inside the jar, e.g. {@code linux-x86_64}. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osPart = os.contains("linux") ? "linux" : os.contains("mac") ? "macos" : os.replace(' ', '_');
        String archPart = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return osPart + "-" + archPart;
    }

    static void load() throws NativeAgentException {
        String resource = platform() + "/libheaptap.so";
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                        "heaptap has no native agent for " + platform() + " (built for linux-x86_64)");
            }
            Path dir = Files.createTempDirectory("heaptap-native-");
            Path lib = dir.resolve("libheaptap.so");
            try {
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                System.load(lib.toAbsolutePath().toString());
            } finally {
                Files.deleteIfExists(lib);
                Files.deleteIfExists(dir);
            }
        } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot load heaptap's native agent: " + e.getMessage());
        }
    }
}
