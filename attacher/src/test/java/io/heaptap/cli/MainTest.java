package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import picocli.CommandLine.Command;

class MainTest {

    @Test
    void eachSubcommandIsListedUnderItsOwnName() {
        for (String name : Main.SUBCOMMANDS) {
            assertEquals(name, Main.subcommand(name).getClass().getAnnotation(Command.class).name());
        }
        assertNull(Main.subcommand("no-such-command"));
    }

    @Test
    void helpStillListsEverySubcommand() {
        PrintStream was = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, Main.run(new String[] {"--help"}));
        } finally {
            System.setOut(was);
        }
        String help = out.toString(StandardCharsets.UTF_8);
        for (String name : Main.SUBCOMMANDS) {
            assertTrue(name.startsWith("__") || help.contains("  " + name + " "), name + " missing from\n" + help);
        }
    }
}
