package io.heaptap.nativeagent;

import io.heaptap.profile.format.FileOwner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * libheaptap.so inside heaptap.jar, put where a JVM can load it.
 *
 * <p>One copy per JVM whatever the race: the library goes to a path named after its content,
 * {@code <tmp>/heaptap-native-<user>/<sha-256>/libheaptap.so}. Every load of the same build, by
 * concurrent first attaches or by the target itself, names the same file, and the dynamic linker
 * maps a file once per process however often it is loaded. (A fresh file per load, as before, let
 * four concurrent attaches map four copies, each with its own sampler.)
 *
 * <p>Nobody else may swap the file: the folders and the file must belong to the user running
 * heaptap and be writable by nobody else, and the file's bytes are compared with the jar's before
 * each use. (The SHA-256 that names the folder is computed by the build, not by each CLI.) If
 * another user owns that folder (squatting on the name), heaptap does not use it: it falls back to a
 * private one-off copy, deleted right after the load (Linux keeps a loaded file mapped).
 */
public final class NativeLibrary {
    public static final String FILE_NAME = "libheaptap.so";
    static final String HASH_FILE_NAME = FILE_NAME + ".sha256";
    private static final Set<PosixFilePermission> WRITABLE_BY_OTHERS =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

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
     * The library ready to load, and whether the caller deletes it after loading (only a one-off
     * copy is deleted; the shared one stays for the next load). Readable by others, so that a
     * target JVM run by another user (heaptap run as root) can load it.
     */
    public record Extracted(Path path, boolean oneOff) {
        /** Call once the library is loaded (or failed to load). */
        public void loaded() {
            if (oneOff) {
                try {
                    Files.deleteIfExists(path);
                    Files.deleteIfExists(path.getParent());
                } catch (IOException ignored) {
                    // a temp file left behind is harmless; nothing to report to the target
                }
            }
        }
    }

    /** Puts the library for this platform under {@code parent} (a temp folder) and says where. */
    public static Extracted extract(Path parent) throws NativeAgentException {
        byte[] bytes = resourceBytes(FILE_NAME);
        String hash = buildHash();
        try {
            Path base = trustedFolder(parent.resolve("heaptap-native-" + System.getProperty("user.name", "user")));
            Path dir = base == null ? null : trustedFolder(base.resolve(hash.substring(0, 32)));
            if (dir != null) {
                Path lib = dir.resolve(FILE_NAME);
                if (!trustedCopy(lib, bytes)) {
                    Path tmp = Files.createTempFile(dir, ".libheaptap-", ".tmp");
                    try {
                        Files.write(tmp, bytes);
                        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r-xr-xr-x"));
                        moveOver(tmp, lib);
                    } finally {
                        Files.deleteIfExists(tmp);
                    }
                }
                if (trustedCopy(lib, bytes)) {
                    return new Extracted(lib, false);
                }
            }
            return oneOff(parent, bytes);
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot extract heaptap's native agent: " + e.getMessage(), e);
        }
    }

    /** Loads the library into this JVM with System.load (used when it was not loaded as an agent). */
    static void load() throws NativeAgentException {
        Extracted lib = extract(Path.of(System.getProperty("java.io.tmpdir")));
        try {
            System.load(lib.path().toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError | SecurityException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot load heaptap's native agent: " + e.getMessage());
        } finally {
            lib.loaded();
        }
    }

    private static byte[] resourceBytes(String name) throws NativeAgentException {
        String resource = platform() + "/" + name;
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE, name.equals(FILE_NAME)
                        ? "heaptap has no native agent for " + platform() + " (built for linux-x86_64)"
                        : "heaptap.jar has no " + resource + " (a broken build?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "cannot read heaptap's native agent from heaptap.jar: " + e.getMessage());
        }
    }

    /** The library's SHA-256 as the build wrote it next to the library (64 lower-case hex digits). */
    static String buildHash() throws NativeAgentException {
        String hash = new String(resourceBytes(HASH_FILE_NAME), StandardCharsets.US_ASCII).strip();
        if (!hash.matches("[0-9a-f]{64}")) {
            throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE,
                    "heaptap.jar's " + HASH_FILE_NAME + " is not a SHA-256 (a broken build?)");
        }
        return hash;
    }

    /** The folder, created if missing (rwxr-xr-x), or null if it is not a folder only this user can change. */
    private static Path trustedFolder(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        } catch (FileAlreadyExistsException exists) {
            // made by an earlier or a concurrent load; checked below like any other
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        boolean ours = a.isDirectory() && FileOwner.isMine(dir);  // by uid: an arbitrary uid's user.name is "?"
        if (!ours || a.permissions().stream().anyMatch(WRITABLE_BY_OTHERS::contains)) {
            return null;
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));  // others must read it
        return dir;
    }

    /** Whether lib is this build's library, a plain file of this user that nobody else can change. */
    private static boolean trustedCopy(Path lib, byte[] bytes) throws IOException {
        if (!Files.exists(lib, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        PosixFileAttributes a = Files.readAttributes(lib, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return a.isRegularFile() && FileOwner.isMine(lib)
                && a.permissions().stream().noneMatch(WRITABLE_BY_OTHERS::contains)
                && a.size() == bytes.length && Arrays.equals(Files.readAllBytes(lib), bytes);
    }

    private static void moveOver(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** A private copy in a fresh folder, for when the shared folder cannot be trusted. */
    private static Extracted oneOff(Path parent, byte[] bytes) throws IOException {
        Path dir = Files.createTempDirectory(parent, "heaptap-native-");
        Path lib = dir.resolve(FILE_NAME);
        Files.write(lib, bytes);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("r-xr-xr-x"));
        return new Extracted(lib, true);
    }
}
