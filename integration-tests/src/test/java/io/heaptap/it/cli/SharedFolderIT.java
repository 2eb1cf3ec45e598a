package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #34, item 4: --out in a folder others can write (/tmp) was checked before the capture and
 * trusted after it. Another user (nobody, through runuser) plants something at the name while root's
 * capture runs: root's profile went into nobody's 0666 file, a planted link cost the profile, a FIFO
 * hung the CLI, a swapped folder made root write into /root. Now none of that can happen: the
 * profile lands in a file of root's beside the name, the CLI says where in one line (exit 2), and
 * nobody's things are left as they were.
 */
class SharedFolderIT {
    private static final Pattern SAVED = Pattern.compile("the profile is in (\\S+)");
    private Path shared;

    @BeforeEach
    void aFolderLikeTmp() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "the other user is nobody through runuser, which needs root");
        shared = Files.createTempDirectory(Path.of("/tmp"), "heaptap-shared-it-");
        Files.setAttribute(shared, "unix:mode", 01777);  // as /tmp: everyone writes, sticky
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (shared != null) {
            new ProcessBuilder("rm", "-rf", shared.toString()).start().waitFor();
        }
    }

    @Test
    void anotherUsersFileLinkOrFifoPlantedDuringTheCaptureIsNeverWrittenThrough() throws Exception {
        Path rootsFile = Path.of("/root/heaptap-shared-it-" + ProcessHandle.current().pid());
        Files.deleteIfExists(rootsFile);
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            // nobody's 0666 file: root's profile went into it
            Path out = shared.resolve("file.txt");
            Result r = captureWhile(target, out, "echo theirs > " + out + " && chmod 666 " + out);
            assertSavedAside(r, out, "belongs to");
            assertEquals("theirs\n", Files.readString(out), "issue #34: root's profile went into nobody's file");
            assertEquals("nobody", Files.getOwner(out).getName());

            // a link to a file of root's
            out = shared.resolve("link.txt");
            r = captureWhile(target, out, "ln -s " + rootsFile + " " + out);
            assertSavedAside(r, out, "is a symbolic link to " + rootsFile);
            assertFalse(Files.exists(rootsFile), "nothing written through the link");
            assertTrue(Files.isSymbolicLink(out));

            // a FIFO nobody reads: the CLI hung
            out = shared.resolve("fifo.txt");
            r = captureWhile(target, out, "mkfifo " + out);
            assertSavedAside(r, out, "a folder other users can write");
            assertEquals(010000, (Integer) Files.getAttribute(out, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000, "still a FIFO");
        } finally {
            Files.deleteIfExists(rootsFile);
        }
    }

    @Test
    void aFolderAnotherUserCouldSwapForALinkIsRefusedBeforeTheCapture() throws Exception {
        Path theirs = shared.resolve("theirs");
        asNobody("mkdir " + theirs + " && chmod 777 " + theirs);
        Path link = shared.resolve("to-root");
        asNobody("ln -s /root " + link);
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            // nobody owns the folder, in a sticky /tmp: it may rename it and put a link to /root in its place at any time
            OneLineErrors.assertOneLineError(HeaptapCli.run("capture", pid, "--duration", "1s", "--out",
                    theirs.resolve("p.txt").toString()), 2, "can be swapped for a link by another user");
            OneLineErrors.assertOneLineError(HeaptapCli.run("capture", pid, "--duration", "1s", "--out",
                    link.resolve("p.txt").toString()), 2, "is a symbolic link of nobody");
            assertFalse(Files.exists(Path.of("/root/p.txt")), "issue #34: root wrote into /root through nobody's folder");
            // the user's own file in the shared folder is still replaced, owner-only
            Path mine = shared.resolve("mine.txt");
            Result r = HeaptapCli.run("capture", pid, "--duration", "1s", "--out", mine.toString());
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(Files.readString(mine).contains("Top allocation sites"));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
        }
    }

    /** Runs a capture to out and, while it records (its --out checked already), plants something as nobody. */
    private static Result captureWhile(TargetJvm target, Path out, String plant) throws Exception {
        Process cli = HeaptapCli.start("capture", Long.toString(target.pid()), "--duration", "6s", "--out", out.toString());
        Wait.forState(target.pid(), "recording", Duration.ofSeconds(60));
        asNobody(plant);
        Process p = cli;
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("issue #34: heaptap hung writing to " + out);
        }
        return HeaptapCli.finish(cli);
    }

    private static void assertSavedAside(Result r, Path out, String why) throws IOException {
        OneLineErrors.assertOneLineError(r, 2, why);
        Matcher m = SAVED.matcher(r.stderr());
        assertTrue(m.find(), () -> "the profile is not lost: " + r);
        Path saved = Path.of(m.group(1));
        assertEquals(out.getParent(), saved.getParent());
        assertTrue(Files.readString(saved).contains("Top allocation sites"), saved::toString);
        assertEquals("root", Files.getOwner(saved).getName());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(saved)));
    }

    private static void asNobody(String shell) throws Exception {
        Process p = new ProcessBuilder(List.of("runuser", "-u", "nobody", "--", "sh", "-c", shell))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0, () -> "as nobody: " + shell + ": " + said);
    }
}
