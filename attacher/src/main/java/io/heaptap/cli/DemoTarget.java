package io.heaptap.cli;

import io.heaptap.cli.args.Syntax;
import io.heaptap.demo.DemoWorkload;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

/** The demo's target JVM (hidden): runs the workload until its parent closes stdin. */
final class DemoTarget implements Callable<Integer> {
    static final Syntax SYNTAX = new Syntax("__demo-target", List.of("The demo's target JVM."), null, List.of(), true);
    static final String READY = "heaptap-demo-ready";

    @Override
    public Integer call() throws IOException {
        DemoWorkload.run();
        System.out.println(READY + " " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the parent (heaptap demo) to go away
        }
        return 0;
    }
}
