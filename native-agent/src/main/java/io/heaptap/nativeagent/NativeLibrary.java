package io.heaptap.nativeagent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * libheaptap.so inside heaptap.jar. To load it, it is copied into a fresh temporary folder, loaded,
 * and deleted again right away (Linux keeps a loaded file mapped), so nothing is left behind and
 * nobody can swap the file in between.
 */
public final class NativeLibrary {
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

    /**
     * Copies the library for this platform into a new folder {@code dir/heaptap-native-*}; the
     * caller loads it and then calls {@link #delete}. The folder is readable by others so that a
     * target JVM run by another user (heaptap run as root) can load it; only its owner can write.
     */
    public static Path extract(Path parent) throws NativeAgentException {
        String resource = platform() + "/libheaptap.so";
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                        "heaptap has no native agent for " + platform() + " (built for linux-x86_64)");
            }
            Path dir = Files.createTempDirectory(parent, "heaptap-native-");
            Path lib = dir.resolve("libheaptap.so");
            Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
                Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("r-xr-xr-x"));
            }
            return lib;
        } catch (IOException | SecurityException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot extract heaptap's native agent: " + e.getMessage());
        }
    }

    /** Removes an extracted library and its folder (a loaded library stays mapped). */
    public static void delete(Path lib) {
        try {
            Files.deleteIfExists(lib);
            Files.deleteIfExists(lib.getParent());
        } catch (IOException ignored) {
            // a temp file left behind is harmless; nothing to report to the target
        }
    }

    /** Loads the library into this JVM with System.load (used when it was not loaded as an agent). */
    static void load() throws NativeAgentException {
        Path lib = extract(Path.of(System.getProperty("java.io.tmpdir")));
        try {
            System.load(lib.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError | SecurityException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot load heaptap's native agent: " + e.getMessage());
        } finally {
            delete(lib);
        }
    }
}
