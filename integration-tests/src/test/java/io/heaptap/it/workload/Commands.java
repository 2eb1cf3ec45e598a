package io.heaptap.it.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** The stdin protocol of test workloads: one command per line; "exit" ends the JVM. */
final class Commands {
    private Commands() {
    }

    static void serve(Consumer<String> handler) throws IOException {
        System.out.println("ready " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String command = line.trim();
            if (command.equals("exit")) {
                System.exit(0);
            }
            if (command.startsWith("echo ")) {
                // A mark in the target's stdout: every line the JVM wrote before it (a -Xlog line too) is read once it is.
                System.out.println(command.substring("echo ".length()));
                continue;
            }
            handler.accept(command);
        }
    }
}
