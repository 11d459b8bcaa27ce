package io.qawk.orchestrator.testkit.scale;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Counts;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Op;

/** Requests received per {@link Op} and the time spent answering them, since the last {@link #reset()}. */
final class RequestCounter {

    private final AtomicLongArray counts = new AtomicLongArray(Op.values().length);
    private final AtomicLong handlingNanos = new AtomicLong();

    void count(Op op) {
        counts.incrementAndGet(op.ordinal());
    }

    void handled(long nanos) {
        handlingNanos.addAndGet(nanos);
    }

    Counts snapshot() {
        Map<Op, Long> out = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            out.put(op, counts.get(op.ordinal()));
        }
        return new Counts(Collections.unmodifiableMap(out));
    }

    void reset() {
        for (int i = 0; i < counts.length(); i++) {
            counts.set(i, 0);
        }
        handlingNanos.set(0);
    }

    Duration handlingTime() {
        return Duration.ofNanos(handlingNanos.get());
    }
}
