package io.heaptap.it.workload;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A target whose main returns when told "return", leaving only daemon threads: such a JVM ends
 * there, unless something (a non-daemon thread, an RMI export that keeps the JVM alive) holds it.
 */
public final class MainReturns {
    private MainReturns() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("return")) {
            System.out.println("still here");
        }
        System.out.println("returning");
    }
}
