package io.heaptap.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http.Reply;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** heaptap's HTTP endpoint as the tests reach it: {@code heaptap serve} run as a user runs it, and checks of its replies. */
public final class HttpEndpoint {
    private static final Pattern URL = Pattern.compile("serving at (http://\\S+)");
    private static final Pattern TOKEN_FILE = Pattern.compile("needs the token in (\\S+?)( \\(|:)");

    private HttpEndpoint() {
    }

    /** {@code heaptap serve} as a user runs it; a client with the token the CLI pointed to (the tests run as root). */
    public static Http serve(long pid, String... more) {
        List<String> args = new ArrayList<>(List.of("serve", Long.toString(pid)));
        args.addAll(List.of(more));
        Result r = HeaptapCli.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.toString());
        Matcher url = URL.matcher(r.out());
        assertTrue(url.find(), r.out());
        Matcher file = TOKEN_FILE.matcher(r.out());
        assertTrue(file.find(), "serve says where the token is: " + r.out());
        assertTrue(r.out().contains("curl -H \"Authorization: Bearer $(cat " + file.group(1) + ")\" " + url.group(1) + "api/status"),
                r.out());
        try {
            return new Http(url.group(1), Files.readString(Path.of(file.group(1))).strip());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static JsonNode json(Reply r) {
        return Profiles.json(r.body());
    }

    public static void expectError(Reply r, int status, String parameter) {
        assertEquals(status, r.status(), r.toString());
        assertTrue(r.header("content-type").orElseThrow().startsWith("application/json"), r.toString());
        JsonNode error = json(r).get("error");
        assertEquals(status, error.get("status").asInt());
        assertFalse(error.get("message").asText().isBlank());
        if (parameter != null) {
            assertEquals(parameter, error.get("parameter").asText(), r.toString());
        }
        assertEquals("nosniff", r.header("x-content-type-options").orElseThrow());
    }
}
