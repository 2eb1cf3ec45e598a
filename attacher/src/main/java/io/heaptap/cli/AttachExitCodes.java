package io.heaptap.cli;

import io.heaptap.attach.AgentFailedException;
import io.heaptap.attach.AttachException;
import io.heaptap.attach.BadOptionsException;
import io.heaptap.attach.CannotAttachException;
import io.heaptap.attach.NoTargetException;
import io.heaptap.attach.TargetExitedException;
import io.heaptap.attach.TargetRefusedException;
import io.heaptap.exit.ExitCode;

/** The exit code for each reason the attach layer gives (README's table of exit codes). */
final class AttachExitCodes {
    private AttachExitCodes() {
    }

    static ExitCode of(AttachException e) {
        if (e instanceof NoTargetException) {
            return ExitCode.NO_TARGET;
        }
        if (e instanceof CannotAttachException) {
            return ExitCode.CANNOT_ATTACH;
        }
        if (e instanceof TargetRefusedException) {
            return ExitCode.REFUSED;
        }
        if (e instanceof TargetExitedException) {
            return ExitCode.TARGET_EXITED;
        }
        if (e instanceof BadOptionsException) {
            return ExitCode.USAGE;
        }
        if (e instanceof AgentFailedException) {
            return ExitCode.INTERNAL;
        }
        throw new IllegalStateException("no exit code for " + e.getClass().getName());
    }
}
