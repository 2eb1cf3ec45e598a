package io.heaptap.cli;

import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.profile.format.FileOwner;
import io.heaptap.profile.format.ProfileFormat;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.channels.Channels;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where a profile or report goes and in which format, checked before attaching (a typo in --out
 * never costs a capture) and again when written, through the folder opened once ({@link OutputFolder}:
 * a folder of the path that another user could swap for a link is refused). What --out names then decides:
 *
 * <ul>
 *   <li>nothing yet: a new file, readable by its owner only, created exclusively under a hidden
 *       random name and renamed over the name, so nobody ever sees half a profile;
 *   <li>a regular file of the user's: replaced the same way, keeping its permissions; with several
 *       names (hard links) in a folder closed to others, written in place so every name sees it;
 *   <li>another user's file: refused (heaptap never writes into it, whoever planted it);
 *   <li>a device or a FIFO ({@code /dev/null}, a named pipe) in a folder closed to others: written
 *       into as a stream; in a folder others can write (/tmp), refused, as another user may have
 *       planted it (a FIFO nobody reads would hang the CLI);
 *   <li>{@code -}, {@code /dev/stdout}: standard output; {@code /dev/stderr}, {@code /dev/fd/N}: that descriptor;
 *   <li>a symbolic link (other than those), a socket, a folder: refused. heaptap does not follow a link
 *       that someone else may have planted; the message names its target, which can be given instead.
 * </ul>
 */
public record Output(ProfileFormat format, Path file) {
    private static final Set<String> STDOUT = Set.of("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");
    private static final int BUFFER = 64 * 1024;
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    /** Writes a whole output to a stream. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** --format wins; else the --out extension; else text. */
    public static Output resolve(String format, Path out) {
        boolean stdout = out == null || STDOUT.contains(out.toString());
        if (!stdout && Files.isDirectory(out, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("--out " + out + " is a directory; give a file name");
        }
        ProfileFormat f;
        if (format != null) {
            f = ProfileFormat.parse(format);
        } else if (!stdout && !isDescriptor(out)) {
            f = ProfileFormat.fromFileName(out.getFileName().toString()).orElseThrow(() -> new IllegalArgumentException(
                    "cannot tell the format from '" + out.getFileName() + "': use an extension (.txt, .pb.gz, .collapsed, "
                            + ".json, .html, .otlp.pb) or --format"));
        } else {
            f = ProfileFormat.TEXT;
        }
        if (stdout) {
            if ((f == ProfileFormat.PPROF || f == ProfileFormat.OTLP) && System.console() != null) {
                throw new IllegalArgumentException(f.id() + " is binary: write it to a file with --out FILE" + f.extension());
            }
            return new Output(f, null);
        }
        Path file = out.toAbsolutePath().normalize();
        kind(file, out);
        return new Output(f, file);
    }

    /** How a path is written: checked before attaching and again, authoritatively, when writing. */
    private enum Kind { NEW, REPLACE, IN_PLACE, STREAM }

    private static Kind kind(Path file, Path asGiven) {
        if (isDescriptor(file)) {
            return Kind.STREAM;  // /dev/stderr, /dev/fd/N: the process's own descriptors, links only by name
        }
        try (OutputFolder folder = OutputFolder.open(file.getParent(), asGiven.toString())) {
            return kind(folder, file.getFileName().toString(), asGiven);
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException("--out " + asGiven + " cannot be examined: " + e.getMessage());
        }
    }

    /**
     * What is at the name in the open folder decides. Only a name that is free or the user's own
     * regular file is written, through a new file and a rename; a device, a FIFO or a hard-linked file
     * is written into only in a folder closed to others, where nobody else can have put it.
     */
    private static Kind kind(OutputFolder folder, String name, Path asGiven) throws IOException {
        PosixFileAttributes a = folder.entry(name);
        if (a == null) {
            if (!Files.isWritable(folder.real())) {
                throw new IllegalArgumentException("--out " + asGiven + " cannot be written (permission denied)");
            }
            return Kind.NEW;
        }
        Path at = folder.real().resolve(name);
        if (a.isSymbolicLink()) {
            throw new IllegalArgumentException("--out " + asGiven + " is a symbolic link to " + linkTarget(at)
                    + ": heaptap does not follow links (someone else may have planted it); give the path it points to");
        }
        if (a.isDirectory()) {
            throw new IllegalArgumentException("--out " + asGiven + " is a directory; give a file name");
        }
        if (a.isOther()) {
            if (!folder.closedToOthers()) {
                throw new IllegalArgumentException("--out " + asGiven + " is a device, FIFO or socket in " + folder.real()
                        + ", a folder other users can write: heaptap does not write into it (someone else may have planted it)");
            }
            if (isSocket(at)) {
                throw new IllegalArgumentException("--out " + asGiven + " is a socket; give a file, a device or a FIFO");
            }
            if (!Files.isWritable(at)) {
                throw new IllegalArgumentException("--out " + asGiven + " cannot be written (permission denied)");
            }
            return Kind.STREAM;
        }
        if (!FileOwner.isMine(at)) {
            throw new IllegalArgumentException("--out " + asGiven + " belongs to " + FileOwner.describe(at)
                    + ": heaptap does not write into another user's file; remove it or give another name");
        }
        if (!Files.isWritable(folder.real())) {
            if (folder.closedToOthers() && Files.isWritable(at)) {
                return Kind.IN_PLACE;
            }
            throw new IllegalArgumentException("--out " + asGiven + " cannot be written (permission denied)");
        }
        return folder.closedToOthers() && folder.links(name) > 1 ? Kind.IN_PLACE : Kind.REPLACE;
    }

    /**
     * The name was fine when checked before the capture and is not any more (another user planted a
     * link, a FIFO or a file there meanwhile): the profile is not lost but written to a new file of its
     * own beside it, whose name the message gives.
     */
    private static String saveAside(OutputFolder folder, String name, Body body) {
        try {
            OutputFolder.Temporary tmp = folder.createTemporary(PosixFilePermissions.fromString("rw-------"));
            try {
                try (Counting out = new Counting(new BufferedOutputStream(Channels.newOutputStream(tmp.channel()), BUFFER))) {
                    body.writeTo(out);
                }
                return "; " + keep(folder, tmp.name(), name);
            } finally {
                folder.deleteQuietly(tmp.name());
            }
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Gives a written temporary file a visible name of its own, never one that exists; says where. */
    private static String keep(OutputFolder folder, String tmp, String name) {
        try {
            String saved = folder.linkNew(tmp, "heaptap-saved-", "-" + name);
            return "the profile is in " + folder.real().resolve(saved);
        } catch (IOException e) {
            return "the profile is lost (" + e.getMessage() + ")";
        }
    }

    private static boolean isSocket(Path path) {
        try {
            return ((Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT) == S_IFSOCK;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isDescriptor(Path path) {
        String p = path.toString();
        return p.equals("/dev/stderr") || p.startsWith("/dev/fd/") || p.startsWith("/proc/self/fd/");
    }

    private static String linkTarget(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "(unreadable)";
        }
    }

    /**
     * Writes the output; returns the bytes written.
     *
     * @throws HeaptapException (exit 2) when the path cannot be written any more, or the write fails
     */
    public long write(Body body) throws IOException {
        try {
            return writeOrFail(body);
        } catch (IOException e) {
            throw new HeaptapException(ExitCode.USAGE, "cannot write --out " + file + ": " + e.getMessage());
        }
    }

    private long writeOrFail(Body body) throws IOException {
        if (file == null) {
            Counting out = new Counting(System.out);
            body.writeTo(out);
            out.flush();
            return out.count;
        }
        if (isDescriptor(file)) {
            return stream(body, Files.newOutputStream(file, StandardOpenOption.WRITE));
        }
        // Again, through the folder opened once: the path may have changed while the capture ran.
        try (OutputFolder folder = OutputFolder.open(file.getParent(), file.toString())) {
            String name = file.getFileName().toString();
            Kind kind;
            try {
                kind = kind(folder, name, file);
            } catch (IllegalArgumentException e) {
                throw new HeaptapException(ExitCode.USAGE, e.getMessage() + saveAside(folder, name, body));
            }
            return switch (kind) {
                case NEW, REPLACE -> replace(folder, name, body, kind == Kind.REPLACE);
                case IN_PLACE -> stream(body, Channels.newOutputStream(folder.openExisting(name, true)));
                case STREAM -> stream(body, Channels.newOutputStream(folder.openExisting(name, false)));
            };
        } catch (IllegalArgumentException e) {
            throw new HeaptapException(ExitCode.USAGE, e.getMessage());
        }
    }

    public long write(byte[] bytes) throws IOException {
        return write(out -> out.write(bytes));
    }

    private static long stream(Body body, OutputStream target) throws IOException {
        try (Counting out = new Counting(new BufferedOutputStream(target, BUFFER))) {
            body.writeTo(out);
            return out.count;
        }
    }

    /**
     * Through a new file created exclusively in the open folder and a rename over the name: nothing is
     * ever written into a file that was there. An existing file's permissions are kept (less the umask).
     */
    private static long replace(OutputFolder folder, String name, Body body, boolean existing) throws IOException {
        Set<PosixFilePermission> permissions = PosixFilePermissions.fromString("rw-------");
        if (existing) {
            PosixFileAttributes a = folder.entry(name);
            if (a != null && a.isRegularFile()) {
                permissions = a.permissions();
            }
        }
        OutputFolder.Temporary tmp = folder.createTemporary(permissions);
        try {
            long written;
            try (Counting out = new Counting(new BufferedOutputStream(Channels.newOutputStream(tmp.channel()), BUFFER))) {
                body.writeTo(out);
                written = out.count;
            }
            // Checked once more right before the rename: a name that became another user's file or a
            // FIFO meanwhile is refused (the rename would replace it without writing into it anyway).
            PosixFileAttributes now = folder.entry(name);
            if (now != null && (!now.isRegularFile() || !FileOwner.isMine(folder.real().resolve(name)))) {
                String saved = keep(folder, tmp.name(), name);
                throw new HeaptapException(ExitCode.USAGE, "--out " + folder.real().resolve(name)
                        + " was replaced by something else while heaptap wrote (not followed, not written into); " + saved);
            }
            folder.rename(tmp.name(), name);
            return written;
        } finally {
            folder.deleteQuietly(tmp.name());
        }
    }

    /** Counts what passes; closing it closes the file, never stdout. */
    private static final class Counting extends FilterOutputStream {
        long count;

        Counting(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
