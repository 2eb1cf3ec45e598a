package io.heaptap.cli;

import io.heaptap.attach.TargetResolver;
import io.heaptap.attach.TargetResolver.ListedJvm;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;

import java.util.List;
import java.util.concurrent.Callable;

final class ListCommand implements Callable<Integer> {
    static final Syntax SYNTAX = Syntax.of("list",
            "List local JVMs (like jps): pid, main class, Java version, whether heaptap is loaded.", null, List.of());

    @Override
    public Integer call() {
        List<ListedJvm> jvms = TargetResolver.list();
        Terminal.printf("%-8s %-10s %-8s %s%n", "PID", "JAVA", "HEAPTAP", "MAIN CLASS");
        for (ListedJvm j : jvms) {
            Terminal.printf("%-8d %-10s %-8s %s%n", j.pid(), j.javaVersion(), j.heaptapLoaded(), j.mainClass());
        }
        return ExitCode.OK.code();
    }
}
