package io.heaptap.cli;

import io.heaptap.profile.format.AtomicFile;
import io.heaptap.profile.format.ProfileFormat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a dump goes and in which format. Checked before attaching, so a typo in --out never costs
 * a capture; written through a temporary file and a rename, so a file is never left half-written.
 */
public record Output(ProfileFormat format, Path file) {

    /** --format wins; else the --out extension; else text. */
    public static Output resolve(String format, Path out) {
        if (out != null && Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + " is a directory; give a file name");
        }
        ProfileFormat f;
        if (format != null) {
            f = ProfileFormat.parse(format);
        } else if (out != null) {
            f = ProfileFormat.fromFileName(out.getFileName().toString()).orElseThrow(() -> new IllegalArgumentException(
                    "cannot tell the format from '" + out.getFileName() + "': use an extension (.txt, .pb.gz, .collapsed, "
                            + ".json, .html) or --format"));
        } else {
            f = ProfileFormat.TEXT;
        }
        if (out == null) {
            if (f == ProfileFormat.PPROF && System.console() != null) {
                throw new IllegalArgumentException("pprof is binary: write it to a file with --out FILE.pb.gz");
            }
            return new Output(f, null);
        }
        Path file = out.toAbsolutePath().normalize();
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--out " + out + ": the folder " + dir + " does not exist");
        }
        if (!Files.isWritable(dir) || (Files.exists(file) && !Files.isWritable(file))) {
            throw new IllegalArgumentException("--out " + out + " cannot be written (permission denied)");
        }
        return new Output(f, file);
    }

    public void write(byte[] bytes) throws IOException {
        if (file == null) {
            System.out.write(bytes);
            System.out.flush();
            return;
        }
        AtomicFile.write(file, bytes);
    }
}
