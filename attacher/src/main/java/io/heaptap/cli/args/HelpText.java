package io.heaptap.cli.args;

import java.util.ArrayList;
import java.util.List;

/** Help as a terminal shows it: a usage line, the description, the operand and the flags, wrapped at 80 columns. */
public final class HelpText {
    private static final int WIDTH = 80;
    private static final int FLAG_COLUMN = 30;
    private static final int COMMAND_COLUMN = 12;

    private HelpText() {
    }

    /** One command's help. */
    public static String of(String program, Syntax s) {
        StringBuilder out = new StringBuilder();
        out.append("Usage: ").append(program).append(' ').append(s.name())
                .append(s.operand() == null ? "" : " " + s.operand().label()).append(" [options]\n");
        for (String paragraph : s.description()) {
            wrap(out, "", paragraph, 0);
        }
        if (s.operand() != null) {
            out.append('\n');
            row(out, s.operand().label(), s.operand().description(), FLAG_COLUMN);
        }
        out.append("\nOptions:\n");
        for (Flag f : s.flags()) {
            row(out, f.takesValue() ? f.name() + "=" + f.label() : f.name(), f.description(), FLAG_COLUMN);
        }
        helpAndVersion(out);
        return out.toString();
    }

    /** The program's help: what it is, its commands, what its exit codes mean. */
    public static String overview(String program, String description, List<Syntax> commands, List<String> exitCodes) {
        StringBuilder out = new StringBuilder();
        out.append("Usage: ").append(program).append(" <command> [options]\n");
        wrap(out, "", description, 0);
        out.append("\nCommands:\n");
        for (Syntax s : commands) {
            if (!s.hidden()) {
                row(out, s.name(), s.description().get(0), COMMAND_COLUMN);
            }
        }
        out.append("\nOptions:\n");
        helpAndVersion(out);
        out.append("\nExit codes:\n");
        for (String code : exitCodes) {
            int colon = code.indexOf(':');
            row(out, code.substring(0, colon), code.substring(colon + 1), COMMAND_COLUMN);
        }
        out.append("\n'").append(program).append(" <command> --help' shows a command's options.\n");
        return out.toString();
    }

    /** The flags every command has ({@link ArgumentParser#isHelp}, {@link ArgumentParser#isVersion}). */
    private static void helpAndVersion(StringBuilder out) {
        row(out, "-h, --help", "Show this help and exit.", FLAG_COLUMN);
        row(out, "-V, --version", "Print the version and exit.", FLAG_COLUMN);
    }

    /** {@code left} indented by two, {@code text} wrapped in a column from {@code column}. */
    private static void row(StringBuilder out, String left, String text, int column) {
        String head = "  " + left;
        if (head.length() >= column - 1) {
            out.append(head).append('\n');
            wrap(out, " ".repeat(column), text, column);
        } else {
            wrap(out, head + " ".repeat(column - head.length()), text, column);
        }
    }

    /** Words of {@code text} after {@code first}, lines no wider than the terminal, continued at {@code indent}. */
    private static void wrap(StringBuilder out, String first, String text, int indent) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        int emptyLength = first.length();
        for (String word : text.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > emptyLength && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(" ".repeat(indent));
                emptyLength = indent;
            }
            if (line.length() > emptyLength) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        for (String l : lines) {
            out.append(l.stripTrailing()).append('\n');
        }
    }
}
