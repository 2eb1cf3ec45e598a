package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #34, item 11: the --token-file's owner was never checked. Root accepted nobody's 0600 file
 * for root's JVM, and nobody, who knows its content, then got 200; root serving nobody's JVM with a
 * root-only secret put a hash of that secret into nobody's heap. The file must belong to the uid the
 * target runs as.
 */
class TokenFileOwnerIT {
    private static final Pattern URL = Pattern.compile("serving at (http://\\S+)");

    @BeforeEach
    void asRoot() {
        assumeTrue("root".equals(System.getProperty("user.name")), "the other user is nobody, which needs root (CI runs as root)");
    }

    @Test
    void anotherUsersTokenFileIsRefusedForRootsJvm() throws Exception {
        Path token = tokenFile("nobodys-token", "guessable");
        Files.setAttribute(token, "unix:uid", 65534);
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Result r = HeaptapCli.run("serve", Long.toString(target.pid()), "--token-file", token.toString());
            OneLineErrors.assertOneLineError(r, 2, "belongs to nobody (uid 65534), not to the target's user (uid 0)");
            assertTrue(r.stderr().contains("would get in"), r::toString);
        }
    }

    @Test
    void aSecretOfRootsIsNeverHandedToAnotherUsersJvm() throws Exception {
        Path rootsSecret = tokenFile("roots-secret", "roots-password-0123456789abcdef");
        try (TargetJvm target = TargetJvm.startWith(List.of("setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"), Jdk.current(), Allocator.class,
                List.of())) {
            String pid = Long.toString(target.pid());
            Result r = HeaptapCli.run("serve", pid, "--token-file", rootsSecret.toString());
            OneLineErrors.assertOneLineError(r, 2, "belongs to root (uid 0), not to the target's user (uid 65534)");
            assertTrue(r.stderr().contains("cannot read"), r::toString);

            // nobody's own file is the one that works
            Path nobodys = tokenFile("nobodys-own", "their-token-0123456789abcdef");
            Files.setAttribute(nobodys, "unix:uid", 65534);
            Result served = HeaptapCli.run("serve", pid, "--token-file", nobodys.toString());
            assertEquals(0, served.exitCode(), served::toString);
            Matcher url = URL.matcher(served.out());
            assertTrue(url.find(), served::toString);
            assertEquals(200, new Http(url.group(1), "their-token-0123456789abcdef").get("/api/status").status());
            assertEquals(401, new Http(url.group(1), "roots-password-0123456789abcdef").get("/api/status").status());
        }
    }

    private static Path tokenFile(String name, String token) throws Exception {
        Path file = Paths.workDir("token-owner").resolve(name);
        Files.writeString(file, token + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
