package io.heaptap.cli;

import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.profile.format.ProfileFormat;

import java.nio.file.Path;
import java.util.List;

/** Where and how a profile is written, shared by {@code capture} and {@code dump}. */
record OutputFlags(String format, Path out) {
    static final List<Flag> FLAGS = List.of(
            Flag.value("--format", "<format>", "text, pprof, collapsed, json, html or otlp (alpha). Default: from the --out extension, else text."),
            Flag.value("--out", "<file>", "Write to this file (.txt, .pb.gz, .collapsed, .json, .html, .otlp.pb) instead of stdout."));

    static OutputFlags from(Arguments args) {
        return new OutputFlags(args.value("--format"), args.path("--out"));
    }

    Output resolve() {
        return Output.resolve(format, out);
    }

    static boolean quiet(Output output) {
        return output.file() == null && output.format() == ProfileFormat.TEXT;
    }
}
