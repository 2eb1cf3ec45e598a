package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heaptap.attach.AgentFailedException;
import io.heaptap.attach.BadOptionsException;
import io.heaptap.attach.CannotAttachException;
import io.heaptap.attach.NoTargetException;
import io.heaptap.attach.TargetExitedException;
import io.heaptap.attach.TargetRefusedException;
import io.heaptap.exit.ExitCode;

import org.junit.jupiter.api.Test;

/** Each reason the attach layer gives ends the CLI with the exit code the README documents for it. */
class AttachExitCodesTest {
    @Test
    void everyReasonHasItsDocumentedExitCode() {
        assertEquals(ExitCode.NO_TARGET, AttachExitCodes.of(new NoTargetException(-1, "none")));
        assertEquals(ExitCode.CANNOT_ATTACH, AttachExitCodes.of(new CannotAttachException(7, "cannot")));
        assertEquals(ExitCode.REFUSED, AttachExitCodes.of(new TargetRefusedException(7, "refused")));
        assertEquals(ExitCode.TARGET_EXITED, AttachExitCodes.of(new TargetExitedException(7)));
        assertEquals(ExitCode.USAGE, AttachExitCodes.of(new BadOptionsException(7, "bad")));
        assertEquals(ExitCode.INTERNAL, AttachExitCodes.of(new AgentFailedException(7, "bug")));
    }

    @Test
    void anExitedTargetIsNamedInOneLine() {
        assertEquals("the target JVM (pid 7) exited", new TargetExitedException(7).getMessage());
    }
}
