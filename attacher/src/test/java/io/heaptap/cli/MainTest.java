package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.cli.args.ArgumentParser;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

class MainTest {

    /** Each command reads only flags its syntax declares: Arguments throws for any other, so building each one shows it. */
    @Test
    void eachSubcommandIsListedUnderItsOwnNameAndBuildsFromItsDefaults() {
        for (String name : Main.SUBCOMMANDS) {
            Syntax syntax = Main.syntax(name);
            assertEquals(name, syntax.name());
            List<String> args = syntax.operand() == null ? List.of() : List.of("4242");
            if (syntax.flag("--site") != null) {
                args = List.of("4242", "--site", "byte[]");
            }
            assertNotNull(Main.command(ArgumentParser.parse(syntax, args)), name);
        }
        assertNull(Main.syntax("no-such-command"));
    }

    @Test
    void helpStillListsEverySubcommand() {
        Result r = capture(() -> Main.run(new String[] {"--help"}));
        assertEquals(0, r.code());
        for (String name : Main.SUBCOMMANDS) {
            assertTrue(name.startsWith("__") || r.out().contains("  " + name + " "), name + " missing from\n" + r.out());
        }
        assertTrue(r.out().contains("130"), "exit codes listed:\n" + r.out());
        assertEquals(r.out(), capture(() -> Main.run(new String[0])).out(), "no arguments shows the same help");
    }

    @Test
    void aCommandsHelpShowsEachOfItsFlagsAndStartsNothing() {
        Result r = capture(() -> Main.run(new String[] {"capture", "--help"}));
        assertEquals(0, r.code());
        for (Flag f : Main.syntax("capture").flags()) {
            assertTrue(r.out().contains(f.name()), f.name() + " missing from\n" + r.out());
        }
        assertTrue(r.out().lines().allMatch(l -> l.length() <= 80 || !l.contains(" ")), "wrapped at 80 columns:\n" + r.out());
    }

    @Test
    void aTypoIsAUsageErrorWithASuggestion() {
        Result r = capture(() -> Main.run(new String[] {"captur", "4242"}));
        assertEquals(2, r.code());
        assertEquals("heaptap: unknown command 'captur'; did you mean capture?\nusage: heaptap --help\n", r.err());
        r = capture(() -> Main.run(new String[] {"start", "4242", "--durration", "5s"}));
        assertEquals(2, r.code());
        assertEquals("heaptap: unknown option '--durration'; did you mean --duration?\nusage: heaptap start --help\n", r.err());
    }

    /** The OTLP push's refusals come before any attach: one line, the usage exit code. */
    @Test
    void otlpPushRefusalsAreUsageErrors() {
        Result r = capture(() -> Main.run(new String[] {"serve", "4242", "--otlp-push", "http://127.0.0.1:4318"}));
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("heaptap: --otlp-push pushes continuous sampling's profile: add --continuous\n"), r.err());
        r = capture(() -> Main.run(new String[] {"serve", "4242", "--continuous", "--otlp-push", "ftp://h/x"}));
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("heaptap: --otlp-push: 'ftp://h/x' is not an http:// or https:// URL"), r.err());
        r = capture(() -> Main.run(new String[] {"serve", "4242", "--continuous", "--otlp-push", "http://h:4318?x=1"}));
        assertEquals(2, r.code());
        assertTrue(r.err().contains("query or fragment"), r.err());
        r = capture(() -> Main.run(new String[] {"serve", "4242", "--continuous", "--otlp-push", "http://h:4318", "--otlp-every", "100ms"}));
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("heaptap: --otlp-every must be between 1.0s and 1h00m, not 100ms"), r.err());
        r = capture(() -> Main.run(new String[] {"serve", "4242", "--continuous", "--otlp-every", "10s"}));
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("heaptap: --otlp-every is the period of the OTLP push: add --otlp-push URL"), r.err());
    }

    @Test
    void versionFromAnywhere() {
        Result top = capture(() -> Main.run(new String[] {"--version"}));
        Result sub = capture(() -> Main.run(new String[] {"status", "-V"}));
        assertEquals(0, top.code());
        assertTrue(top.out().startsWith("heaptap "), top.out());
        assertEquals(top.out(), sub.out());
    }

    private record Result(int code, String out, String err) {
    }

    private static Result capture(Supplier<Integer> run) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int code = run.get();
            return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
