package io.heaptap.profile.format;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Records as JSON and back, by their components' names: one codec for everything that travels
 * between heaptap in a target and the CLI (a raw dump's header), so a component added to such a
 * record travels with no code of its own. Components may be primitives, String, enums, Instant,
 * Duration, List, or records of those; null stays null.
 *
 * <p>Reading is lenient both ways, so a CLI and an agent of neighbouring versions understand each
 * other: a component missing from the JSON gets its type's empty value (0, false, an empty list,
 * null), and a field the record does not have is ignored.
 */
public final class RecordJson {
    private RecordJson() {
    }

    public static String write(Record record) {
        JsonOutput json = new JsonOutput();
        write(json, record);
        return json.toString();
    }

    public static <T extends Record> T read(String json, Class<T> type) {
        return type.cast(convert(JsonReader.parse(json), type, type));
    }

    private static void write(JsonOutput json, Object value) {
        if (value == null) {
            json.value((String) null);
        } else if (value instanceof Record r) {
            json.beginObject();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                json.name(c.getName());
                write(json, get(c, r));
            }
            json.endObject();
        } else if (value instanceof List<?> list) {
            json.beginArray();
            list.forEach(v -> write(json, v));
            json.endArray();
        } else if (value instanceof Double || value instanceof Float) {
            json.exactValue(((java.lang.Number) value).doubleValue());
        } else if (value instanceof java.lang.Number n) {
            json.value(n.longValue());
        } else if (value instanceof Boolean b) {
            json.value(b);
        } else if (value instanceof String || value instanceof Enum<?> || value instanceof Instant || value instanceof Duration) {
            json.value(value instanceof Enum<?> e ? e.name() : value.toString());
        } else {
            throw new IllegalArgumentException("RecordJson cannot write a " + value.getClass().getName());
        }
    }

    private static Object get(RecordComponent c, Record r) {
        try {
            return c.getAccessor().invoke(r);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + c, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Object json, Class<?> type, Type generic) {
        if (json == null) {
            return empty(type);
        }
        if (type.isRecord()) {
            Map<String, Object> fields = (Map<String, Object>) json;
            RecordComponent[] components = type.getRecordComponents();
            Object[] args = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int k = 0; k < components.length; k++) {
                types[k] = components[k].getType();
                args[k] = convert(fields.get(components[k].getName()), types[k], components[k].getGenericType());
            }
            try {
                Constructor<?> canonical = type.getDeclaredConstructor(types);
                canonical.setAccessible(true);
                return canonical.newInstance(args);
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("cannot make a " + type.getSimpleName() + " from " + json, e);
            }
        }
        if (type == List.class) {
            Type element = ((ParameterizedType) generic).getActualTypeArguments()[0];
            Class<?> elementClass = element instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) element;
            List<Object> list = new ArrayList<>();
            for (Object item : (List<Object>) json) {
                list.add(convert(item, elementClass, element));
            }
            return list;
        }
        if (type == long.class || type == Long.class) {
            return ((JsonReader.Number) json).asLong();
        }
        if (type == int.class || type == Integer.class) {
            return Math.toIntExact(((JsonReader.Number) json).asLong());
        }
        if (type == double.class || type == Double.class) {
            return json instanceof String special ? Double.parseDouble(special) : ((JsonReader.Number) json).asDouble();
        }
        if (type == boolean.class || type == Boolean.class) {
            return json;
        }
        if (type == String.class) {
            return json;
        }
        if (type == Instant.class) {
            return Instant.parse((String) json);
        }
        if (type == Duration.class) {
            return Duration.parse((String) json);
        }
        if (type.isEnum()) {
            return Enum.valueOf((Class<? extends Enum>) type, (String) json);
        }
        throw new IllegalArgumentException("RecordJson cannot read a " + type.getName());
    }

    /** What a component absent from the JSON becomes. */
    private static Object empty(Class<?> type) {
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == List.class) {
            return List.of();
        }
        return null;
    }
}
