package io.qawk.orchestrator.deployment.model;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TimelineEvent}'s fields as JSON-ready values ({@code run_event.data}): records become maps of their
 * components (nulls left out), lists lists, enums their names, times and durations their ISO text.
 * <p>
 * Each record class's components are looked up once: {@link Class#getRecordComponents} builds new reflection objects
 * on every call, and a pass of the engine writes thousands of events (docs/benchmarks.md, "Decisions the figures made").
 * {@link #json} writes the same values straight as JSON text, which is what the column stores: no map per event and
 * no JSON library between the record and the row.
 */
final class EventData {

    private static final ClassValue<RecordComponent[]> COMPONENTS = new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
            return type.getRecordComponents();
        }
    };

    private EventData() {
    }

    static Map<String, Object> of(Record r) {
        try {
            return fields(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same as {@link #of}, as JSON text: an object of the record's non-null components. */
    static String json(Record r) {
        StringBuilder out = new StringBuilder(64);
        try {
            write(out, r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static void write(StringBuilder out, Object v) throws ReflectiveOperationException {
        if (v instanceof Record r) {
            out.append('{');
            boolean first = true;
            for (RecordComponent c : COMPONENTS.get(r.getClass())) {
                Object value = c.getAccessor().invoke(r);
                if (value == null) {
                    continue;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(out, c.getName());
                out.append(':');
                write(out, value);
            }
            out.append('}');
        } else if (v instanceof Collection<?> list) {
            out.append('[');
            boolean first = true;
            for (Object o : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(out, o);
            }
            out.append(']');
        } else if (v == null) {
            out.append("null");
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte) {
            out.append(v);
        } else if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            out.append(n);
        } else if (v instanceof Enum<?> e) {
            string(out, e.name());
        } else {
            string(out, v.toString());
        }
    }

    /** A JSON string (RFC 8259): quote, backslash and control characters escaped. */
    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static Map<String, Object> fields(Record r) throws ReflectiveOperationException {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : COMPONENTS.get(r.getClass())) {
            Object v = json(c.getAccessor().invoke(r));
            if (v != null) {
                out.put(c.getName(), v);
            }
        }
        return out;
    }

    private static Object json(Object v) throws ReflectiveOperationException {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        if (v instanceof Instant || v instanceof Duration) {
            return v.toString();
        }
        if (v instanceof Collection<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(json(o));
            }
            return out;
        }
        if (v instanceof Record r) {
            return fields(r);
        }
        return v.toString();
    }
}
