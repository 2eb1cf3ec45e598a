package io.heaptap.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.perftools.profiles.ProfileProto.Profile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/** Reads heaptap's outputs the way their consumers do. */
public final class Profiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern INTERVALS = Pattern.compile("at interval (\\d+)(?:-(\\d+))? bytes");

    private Profiles() {
    }

    public static JsonNode json(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes gzipped pprof with the classes generated from the official profile.proto. */
    public static Profile pprof(byte[] gzipped) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return Profile.parseFrom(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Profile pprof(Path file) {
        try {
            return pprof(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The site in a JSON profile whose innermost frame is {@code method} of {@code type}, summed: objects, bytes, samples and the bytes' standard error (from the 95% intervals). */
    public static double[] siteTotals(JsonNode profile, String method, String type) {
        double objects = 0;
        double bytes = 0;
        long samples = 0;
        double variance = 0;
        for (JsonNode site : profile.get("sites")) {
            JsonNode stack = site.get("stack");
            if (site.get("type").asText().equals(type) && stack.size() > 0
                    && stack.get(0).get("method").asText().equals(method)) {
                objects += site.get("estimatedObjects").asDouble();
                bytes += site.get("estimatedBytes").asDouble();
                double sigma = (site.get("estimatedBytesHigh").asDouble() - site.get("estimatedBytesLow").asDouble()) / (2 * 1.96);
                variance += sigma * sigma;
                samples += site.get("samples").asLong();
            }
        }
        return new double[] {objects, bytes, samples, Math.sqrt(variance)};
    }

    /** The largest interval a pprof profile of heaptap's was sampled at, from its comment ("at interval A-B bytes"). */
    public static long largestInterval(Profile p) {
        for (long i : p.getCommentList()) {
            Matcher m = INTERVALS.matcher(p.getStringTable((int) i));
            if (m.find()) {
                return Long.parseLong(m.group(2) != null ? m.group(2) : m.group(1));
            }
        }
        throw new AssertionError("no interval in the comments");
    }
}
