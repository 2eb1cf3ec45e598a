package io.heaptap.cli;

import io.heaptap.profile.format.ProfileFormat;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** Where and how a profile is written, shared by {@code capture} and {@code dump}. */
final class OutputFlags {
    @Option(names = "--format", paramLabel = "<format>",
            description = "text, pprof, collapsed, json or html. Default: from the --out extension, else text.")
    String format;

    @Option(names = "--out", paramLabel = "<file>",
            description = "Write to this file (.txt, .pb.gz, .collapsed, .json, .html) instead of stdout.")
    Path out;

    Output resolve() {
        return Output.resolve(format, out);
    }

    static boolean quiet(Output output) {
        return output.file() == null && output.format() == ProfileFormat.TEXT;
    }
}
