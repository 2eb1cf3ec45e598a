package io.heaptap.cli.args;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a command's arguments: {@code --flag value}, {@code --flag=value}, switches, one operand,
 * {@code --} before an operand that starts with a dash, and the help and version flags every
 * command has. Written for heaptap rather than taken from a library: a general-purpose parser's
 * reflection and class loading took 100-150 ms of every command's CPU, over a quarter of
 * {@code heaptap start}'s time on a busy host.
 */
public final class ArgumentParser {
    private ArgumentParser() {
    }

    public static Arguments parse(Syntax syntax, List<String> args) {
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (isHelp(a)) {
                return new Arguments(syntax, Arguments.Request.HELP, null, Map.of());
            }
        }
        Map<String, String> given = new LinkedHashMap<>();
        String operand = null;
        boolean onlyOperands = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!onlyOperands && a.equals("--")) {
                onlyOperands = true;
            } else if (!onlyOperands && isVersion(a)) {
                return new Arguments(syntax, Arguments.Request.VERSION, null, Map.of());
            } else if (!onlyOperands && a.startsWith("-") && a.length() > 1 && !isNumber(a)) {
                int eq = a.indexOf('=');
                String name = eq < 0 ? a : a.substring(0, eq);
                Flag flag = syntax.flag(name);
                if (flag == null) {
                    throw new UsageException(syntax.name(), "unknown option '" + name + "'" + suggestion(name, syntax));
                }
                if (given.containsKey(name)) {
                    throw new UsageException(syntax.name(), "option '" + name + "' is given twice");
                }
                String value;
                if (!flag.takesValue()) {
                    if (eq >= 0) {
                        throw new UsageException(syntax.name(), "option '" + name + "' takes no value");
                    }
                    value = "";
                } else if (eq >= 0) {
                    value = a.substring(eq + 1);
                } else if (i + 1 < args.size() && !isFlag(args.get(i + 1), syntax)) {
                    value = args.get(++i);
                } else {
                    throw new UsageException(syntax.name(), "option '" + name + "' needs a value: " + flag.label());
                }
                if (flag.takesValue() && value.isEmpty()) {
                    // "--out=" or "--duration ''": none of heaptap's values is empty, and a default in its place would surprise
                    throw new UsageException(syntax.name(), "option '" + name + "' needs a value: " + flag.label());
                }
                given.put(name, value);
            } else if (syntax.operand() == null) {
                throw new UsageException(syntax.name(), "unexpected argument '" + a + "': '" + syntax.name() + "' takes none");
            } else if (operand != null) {
                throw new UsageException(syntax.name(), "unexpected argument '" + a + "': one " + syntax.operand().label()
                        + " only, and it is '" + operand + "'");
            } else {
                operand = a;
            }
        }
        if (syntax.operand() != null && operand == null) {
            throw new UsageException(syntax.name(), "missing " + syntax.operand().label());
        }
        return new Arguments(syntax, Arguments.Request.RUN, operand, given);
    }

    /** The help flag every command has, and heaptap itself. */
    public static boolean isHelp(String arg) {
        return arg.equals("-h") || arg.equals("--help");
    }

    /** The version flag every command has, and heaptap itself. */
    public static boolean isVersion(String arg) {
        return arg.equals("-V") || arg.equals("--version");
    }

    /** A negative number given as an operand ({@code -5s} as a value is taken by its flag before this is asked). */
    private static boolean isNumber(String a) {
        return a.length() > 1 && Character.isDigit(a.charAt(1));
    }

    /** The next argument is another flag, so the one before it has no value ({@code --out --duration 5s}). */
    private static boolean isFlag(String next, Syntax syntax) {
        int eq = next.indexOf('=');
        String name = eq < 0 ? next : next.substring(0, eq);
        return syntax.flag(name) != null || isHelp(next) || next.equals("--");
    }

    /** "; did you mean --duration?" when a flag is one or two edits from a typo. */
    private static String suggestion(String typed, Syntax syntax) {
        String nearest = Suggestions.nearest(typed, syntax.flags().stream().map(Flag::name).toList());
        return nearest == null ? "" : "; did you mean " + nearest + "?";
    }
}
