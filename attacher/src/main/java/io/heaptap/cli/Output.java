package io.heaptap.cli;

import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.profile.format.ProfileFormat;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Set;

/**
 * Where a profile or report goes and in which format, checked before attaching (a typo in --out
 * never costs a capture) and again when written. What --out names decides how it is written:
 *
 * <ul>
 *   <li>nothing yet: a new file, readable by its owner only, written through a temporary file and a
 *       rename, so nobody ever sees half a profile;
 *   <li>a regular file of the user's with one name: replaced the same way, keeping its permissions;
 *   <li>a regular file with several names (hard links), or another user's: written in place, as
 *       {@code cp} does, so every name sees the new profile and the owner stays;
 *   <li>a device or a FIFO ({@code /dev/null}, a named pipe): written into as a stream, never replaced;
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
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;
    private static final int S_IFDIR = 0040000;

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

    /** How a path is written: checked before attaching and again right before writing. */
    private enum Kind { NEW, REPLACE, IN_PLACE, STREAM }

    private static Kind kind(Path file, Path asGiven) {
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--out " + asGiven + ": the folder " + dir + " does not exist");
        }
        if (isDescriptor(file)) {
            return Kind.STREAM;  // /dev/stderr, /dev/fd/N: the process's own descriptors, links only by name
        }
        PosixFileAttributes attributes;
        int mode;
        try {
            attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            if (!Files.isWritable(dir)) {
                throw new IllegalArgumentException("--out " + asGiven + " cannot be written (permission denied)");
            }
            return Kind.NEW;
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException("--out " + asGiven + " cannot be examined: " + e.getMessage());
        }
        switch (mode & S_IFMT) {
            case S_IFLNK -> throw new IllegalArgumentException("--out " + asGiven + " is a symbolic link to " + linkTarget(file)
                    + ": heaptap does not follow links (someone else may have planted it); give the path it points to");
            case S_IFDIR -> throw new IllegalArgumentException("--out " + asGiven + " is a directory; give a file name");
            case S_IFSOCK -> throw new IllegalArgumentException("--out " + asGiven + " is a socket; give a file, a device or a FIFO");
            default -> {
                // a regular file, a device or a FIFO
            }
        }
        if (!Files.isWritable(file)) {
            throw new IllegalArgumentException("--out " + asGiven + " cannot be written (permission denied)");
        }
        if ((mode & S_IFMT) != S_IFREG) {
            return Kind.STREAM;
        }
        boolean mine = attributes.owner().getName().equals(System.getProperty("user.name"));
        if (!mine || links(file) > 1 || !Files.isWritable(dir)) {
            return Kind.IN_PLACE;
        }
        return Kind.REPLACE;
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

    private static int links(Path file) {
        try {
            return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
            return 1;
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
        Kind kind;
        try {
            kind = kind(file, file);  // again: the path may have changed while the capture ran
        } catch (IllegalArgumentException e) {
            throw new HeaptapException(ExitCode.USAGE, e.getMessage());
        }
        return switch (kind) {
            case NEW, REPLACE -> replace(body, kind == Kind.REPLACE);
            case IN_PLACE -> stream(body, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            case STREAM -> isDescriptor(file) ? stream(body, StandardOpenOption.WRITE)
                    : stream(body, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        };
    }

    public long write(byte[] bytes) throws IOException {
        return write(out -> out.write(bytes));
    }

    private long stream(Body body, java.nio.file.OpenOption... options) throws IOException {
        try (Counting out = new Counting(new BufferedOutputStream(Files.newOutputStream(file, options), BUFFER))) {
            body.writeTo(out);
            return out.count;
        }
    }

    /** Through a temporary file and a rename; an existing file's permissions are kept. */
    private long replace(Body body, boolean existing) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), ".heaptap-", ".tmp");
        try {
            long written;
            try (Counting out = new Counting(new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.WRITE), BUFFER))) {
                body.writeTo(out);
                written = out.count;
            }
            if (existing) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return written;
        } finally {
            Files.deleteIfExists(tmp);
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
