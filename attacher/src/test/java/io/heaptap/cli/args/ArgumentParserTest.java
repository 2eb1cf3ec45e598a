package io.heaptap.cli.args;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.cli.args.Syntax.Operand;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class ArgumentParserTest {
    private static final Syntax CAPTURE = Syntax.of("capture", "Capture.", new Operand("<pid>", "The target."), List.of(
            Flag.value("--duration", "<duration>", "Time box."),
            Flag.value("--depth", "<frames>", "Frames."),
            Flag.value("--out", "<file>", "Where."),
            Flag.value("--site", "<type>", "Which."),
            Flag.toggle("--gc", "Collect.")));

    private static Arguments parse(String... args) {
        return ArgumentParser.parse(CAPTURE, List.of(args));
    }

    private static String refused(String... args) {
        UsageException e = assertThrows(UsageException.class, () -> parse(args));
        assertEquals("capture", e.command());
        return e.getMessage();
    }

    @Test
    void valuesSwitchesAndTheOperandInAnyOrder() {
        Arguments a = parse("--duration", "10s", "4242", "--depth=32", "--gc");
        assertEquals(Arguments.Request.RUN, a.request());
        assertEquals("4242", a.operand());
        assertEquals("10s", a.value("--duration"));
        assertEquals(32, a.intValue("--depth", 64));
        assertTrue(a.has("--gc"));
        assertFalse(a.has("--out"));
        assertNull(a.path("--out"));
        assertEquals("fallback", a.value("--site", "fallback"));
    }

    @Test
    void aValueMayStartWithADashAndAnOperandMayFollowDoubleDash() {
        assertEquals("-5s", parse("4242", "--duration", "-5s").value("--duration"));
        assertEquals("a=b", parse("4242", "--site=a=b").value("--site"));
        assertEquals("-weird", parse("--gc", "--", "-weird").operand());
    }

    @Test
    void helpWinsOverAnythingElseAndVersionIsAskedFor() {
        assertEquals(Arguments.Request.HELP, parse("--no-such", "-h").request());
        assertEquals(Arguments.Request.HELP, parse("--help").request());
        assertEquals(Arguments.Request.VERSION, parse("-V").request());
        assertEquals(Arguments.Request.RUN, parse("--", "--help").request(), "after --, an operand");
    }

    @Test
    void eachMistakeIsNamed() {
        assertEquals("missing <pid>", refused("--gc"));
        assertEquals("unknown option '--durations'; did you mean --duration?", refused("4242", "--durations", "5s"));
        assertEquals("unknown option '--colour'", refused("4242", "--colour"));
        assertEquals("option '--duration' needs a value: <duration>", refused("4242", "--duration"));
        assertEquals("option '--out' needs a value: <file>", refused("4242", "--out", "--gc"));
        assertEquals("option '--out' needs a value: <file>", refused("4242", "--out="));
        assertEquals("option '--duration' needs a value: <duration>", refused("4242", "--duration", ""));
        assertEquals("option '--gc' takes no value", refused("4242", "--gc=yes"));
        assertEquals("option '--duration' is given twice", refused("4242", "--duration", "1s", "--duration=2s"));
        assertEquals("unexpected argument '17': one <pid> only, and it is '4242'", refused("4242", "17"));
        UsageException none = assertThrows(UsageException.class,
                () -> ArgumentParser.parse(Syntax.of("list", "List.", null, List.of()), List.of("x")));
        assertEquals("unexpected argument 'x': 'list' takes none", none.getMessage());
    }

    @Test
    void numbersAreAsciiDigitsInRange() {
        assertEquals(-3, parse("1", "--depth", "-3").intValue("--depth", 0));
        assertEquals("invalid value for option '--depth': 'deep' is not a whole number (ASCII digits)",
                assertThrows(UsageException.class, () -> parse("1", "--depth", "deep").intValue("--depth", 0)).getMessage());
        assertThrows(UsageException.class, () -> parse("1", "--depth", "\u0663").intValue("--depth", 0));
        assertEquals("invalid value for option '--depth': '99999999999' is out of range",
                assertThrows(UsageException.class, () -> parse("1", "--depth", "99999999999").intValue("--depth", 0)).getMessage());
    }

    @Test
    void requiredAndPathValues() {
        assertEquals("missing required option --site <type>",
                assertThrows(UsageException.class, () -> parse("1").required("--site")).getMessage());
        assertEquals(Path.of("p.txt"), parse("1", "--out", "p.txt").path("--out"));
        assertTrue(assertThrows(UsageException.class, () -> parse("1", "--out", "a\0b").path("--out")).getMessage()
                .startsWith("invalid value for option '--out': "));
    }

    @Test
    void aFlagTheSyntaxDoesNotDeclareIsABugNotAUsageError() {
        assertThrows(IllegalStateException.class, () -> parse("1").has("--undeclared"));
    }

    @Test
    void helpTextWrapsAndListsEverything() {
        String help = HelpText.of("heaptap", CAPTURE);
        assertTrue(help.startsWith("Usage: heaptap capture <pid> [options]\n"), help);
        for (String f : List.of("--duration=<duration>", "--gc", "-h, --help", "-V, --version", "<pid>")) {
            assertTrue(help.contains(f), f + " in\n" + help);
        }
    }

    @Test
    void suggestionsAreNearOrNone() {
        assertEquals("capture", Suggestions.nearest("captrue", List.of("list", "capture", "leaks")));
        assertNull(Suggestions.nearest("frobnicate", List.of("list", "capture")));
        assertEquals(1, Suggestions.distance("start", "stat"));
        assertEquals(3, Suggestions.distance("start", "stop"));
    }
}
