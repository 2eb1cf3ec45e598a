package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a writer's real output against a hand-kept schema under docs/schema, both ways: every
 * field the writer emits is in the schema with the stated type, and every field the schema lists
 * was emitted (with a non-null value at least once, so nested objects are checked too). The schema
 * files use a small subset of JSON Schema: type (one or a list), properties with
 * additionalProperties false, items, enum, minimum and maximum, description.
 */
public final class JsonSchemaCheck {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final JsonNode schema;
    private final Set<String> listed = new TreeSet<>();
    private final Set<String> seen = new TreeSet<>();
    private final List<String> errors = new ArrayList<>();

    private JsonSchemaCheck(JsonNode schema) {
        this.schema = schema;
        collect(schema, "$");
    }

    /** The schema file, from the repository's docs/schema (tests run in a module's folder). */
    public static JsonSchemaCheck of(String fileName) throws IOException {
        Path file = Path.of("..", "docs", "schema", fileName);
        assertTrue(Files.isRegularFile(file), "missing " + file.toAbsolutePath());
        return new JsonSchemaCheck(MAPPER.readTree(file.toFile()));
    }

    /** Checks one document; call for several (e.g. with and without optional parts), then {@link #assertAllSeen}. */
    public JsonSchemaCheck check(String json) throws IOException {
        walk(schema, MAPPER.readTree(json), "$");
        if (!errors.isEmpty()) {
            fail("the output does not match the schema:\n  " + String.join("\n  ", errors));
        }
        return this;
    }

    /** Every field the schema lists appeared, non-null, in some checked document. */
    public void assertAllSeen() {
        Set<String> missing = new TreeSet<>(listed);
        missing.removeAll(seen);
        assertEquals(Set.of(), missing, "the schema lists fields the writer never emitted (non-null)");
    }

    private void collect(JsonNode s, String path) {
        listed.add(path);
        JsonNode props = s.get("properties");
        if (props != null) {
            props.fieldNames().forEachRemaining(name -> collect(props.get(name), path + "." + name));
        }
        if (s.has("items")) {
            collect(s.get("items"), path + "[]");
        }
    }

    private void walk(JsonNode s, JsonNode v, String path) {
        if (!typeMatches(s.get("type"), v)) {
            errors.add(path + ": " + kind(v) + " where the schema says " + s.get("type"));
            return;
        }
        if (v.isNull()) {
            return;
        }
        seen.add(path);
        if (s.has("enum")) {
            boolean found = false;
            for (JsonNode e : s.get("enum")) {
                found |= e.equals(v);
            }
            if (!found) {
                errors.add(path + ": " + v + " is not one of " + s.get("enum"));
            }
        }
        if (v.isNumber() && s.has("minimum") && v.asDouble() < s.get("minimum").asDouble()) {
            errors.add(path + ": " + v + " is below the minimum " + s.get("minimum"));
        }
        if (v.isNumber() && s.has("maximum") && v.asDouble() > s.get("maximum").asDouble()) {
            errors.add(path + ": " + v + " is above the maximum " + s.get("maximum"));
        }
        if (v.isObject()) {
            JsonNode props = s.get("properties");
            if (props == null) {
                errors.add(path + ": an object, but the schema lists no properties");
                return;
            }
            for (Iterator<String> it = v.fieldNames(); it.hasNext();) {
                String name = it.next();
                if (!props.has(name)) {
                    errors.add(path + "." + name + ": emitted, but not in the schema");
                } else {
                    walk(props.get(name), v.get(name), path + "." + name);
                }
            }
            for (Iterator<String> it = props.fieldNames(); it.hasNext();) {
                String name = it.next();
                if (!v.has(name)) {
                    errors.add(path + "." + name + ": in the schema, but not emitted");
                }
            }
        } else if (v.isArray()) {
            for (JsonNode item : v) {
                walk(s.get("items"), item, path + "[]");
            }
        }
    }

    private static boolean typeMatches(JsonNode type, JsonNode v) {
        if (type == null) {
            return false;
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (typeMatches(t, v)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "string" -> v.isTextual();
            case "number" -> v.isNumber();
            case "integer" -> v.isIntegralNumber();
            case "boolean" -> v.isBoolean();
            case "null" -> v.isNull();
            default -> false;
        };
    }

    private static String kind(JsonNode v) {
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
