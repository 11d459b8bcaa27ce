package io.qawk.orchestrator.deployment;

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
 * on every call, and a pass of the engine writes thousands of events (docs/benchmarks.md, "Issue 16, third look").
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
