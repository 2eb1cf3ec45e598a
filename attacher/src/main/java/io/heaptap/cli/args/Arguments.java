package io.heaptap.cli.args;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A command line parsed against its command's {@link Syntax}: the operand and the flags given, read
 * as the type each command needs. A flag the syntax does not declare is a bug in the command, not
 * the user's mistake, and fails loudly.
 */
public final class Arguments {
    /** What the user asked for beside running the command. */
    public enum Request { RUN, HELP, VERSION }

    private final Syntax syntax;
    private final Request request;
    private final String operand;
    private final Map<String, String> given;  // flag -> value ("" for a switch)

    Arguments(Syntax syntax, Request request, String operand, Map<String, String> given) {
        this.syntax = syntax;
        this.request = request;
        this.operand = operand;
        this.given = Map.copyOf(given);
    }

    public Syntax syntax() {
        return syntax;
    }

    public Request request() {
        return request;
    }

    /** The positional argument (checked present when the syntax has one). */
    public String operand() {
        return operand;
    }

    /** Whether a switch (or any flag) was given. */
    public boolean has(String flag) {
        declared(flag);
        return given.containsKey(flag);
    }

    /** A flag's value, or null when it was not given. */
    public String value(String flag) {
        declared(flag);
        return given.get(flag);
    }

    public String value(String flag, String absent) {
        String v = value(flag);
        return v == null ? absent : v;
    }

    /** A flag the command cannot run without. */
    public String required(String flag) {
        String v = value(flag);
        if (v == null) {
            throw new UsageException(syntax.name(), "missing required option " + flag + " " + syntax.flag(flag).label());
        }
        return v;
    }

    public int intValue(String flag, int absent) {
        long v = longValue(flag, absent);
        if (v != (int) v) {
            throw invalid(flag, value(flag), "is out of range");
        }
        return (int) v;
    }

    /** ASCII digits only: Java's parsers also take other scripts' digits ("\u0663" as 3). */
    public long longValue(String flag, long absent) {
        String v = value(flag);
        if (v == null) {
            return absent;
        }
        if (!v.matches("[+-]?[0-9]{1,18}")) {
            throw invalid(flag, v, "is not a whole number (ASCII digits)");
        }
        return Long.parseLong(v);
    }

    public Path path(String flag) {
        String v = value(flag);
        if (v == null) {
            return null;
        }
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw invalid(flag, v, "is not a file name (" + e.getReason() + ")");
        }
    }

    private UsageException invalid(String flag, String value, String why) {
        return new UsageException(syntax.name(), "invalid value for option '" + flag + "': '" + value + "' " + why);
    }

    private void declared(String flag) {
        if (syntax.flag(flag) == null) {
            throw new IllegalStateException("'" + syntax.name() + "' declares no flag " + flag);
        }
    }
}
