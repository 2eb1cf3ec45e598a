package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine.Command;

class MainTest {

    @Test
    void eachSubcommandIsListedUnderItsOwnName() {
        for (Map.Entry<String, java.util.function.Supplier<Object>> e : Main.SUBCOMMANDS.entrySet()) {
            assertEquals(e.getKey(), e.getValue().get().getClass().getAnnotation(Command.class).name());
        }
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
        for (String name : Main.SUBCOMMANDS.keySet()) {
            assertTrue(name.startsWith("__") || help.contains("  " + name + " "), name + " missing from\n" + help);
        }
    }
}
