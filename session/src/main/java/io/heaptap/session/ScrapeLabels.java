package io.heaptap.session;

import io.heaptap.profile.TargetInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a fleet needs to tell one scraped JVM from another, put on every sample of a continuous
 * scrape as string labels (Pyroscope and Parca keep pprof sample labels; a string label is the same
 * in every scrape, so scrapers that match samples by a hash of locations and labels still match)
 * and in the profile's comments.
 */
public record ScrapeLabels(String service, String host, long pid, String version) {

    public static ScrapeLabels of(ContinuousRun run, TargetInfo target) {
        return new ScrapeLabels(run.service(), hostName(), target.pid(), Version.current());
    }

    /** Label names as Pyroscope's own Java agent names the service ({@code service_name}), then host, pid, version. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("service_name", service);
        m.put("host", host);
        m.put("pid", Long.toString(pid));
        m.put("heaptap_version", version);
        return m;
    }

    /** The kernel's host name (no name lookup: a scrape must not wait on DNS). */
    static String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isBlank() ? "unknown" : env.strip();
    }
}
