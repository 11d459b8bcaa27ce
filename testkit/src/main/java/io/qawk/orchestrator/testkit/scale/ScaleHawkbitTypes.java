package io.qawk.orchestrator.testkit.scale;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The vocabulary of the scale double — kinds of request, action shapes, device rules, counts, fleets, action views —
 * inherited by {@link ScaleHawkbit}, so callers write {@code ScaleHawkbit.Op}, {@code ScaleHawkbit.DeviceRule} ….
 */
public interface ScaleHawkbitTypes {

    /** Kinds of request, as counted. */
    public enum Op {
        TARGETS, TARGET, ATTRIBUTES, METADATA, INSTALLED_DS, ASSIGNED_DS, DS_GET, DS_SEARCH, ASSIGN, ACTIONS, ACTION,
        ACTION_STATUS,
        /** {@code DELETE /targets/{id}/actions/{aid}}. */
        ACTION_CANCEL,
        /** {@code GET /rollouts} (a page). */
        ROLLOUTS,
        /** {@code GET /rollouts/{id}}. */
        ROLLOUT,
        /** {@code GET /rollouts/{id}/deploygroups} and {@code …/deploygroups/{gid}/targets}. */
        ROLLOUT_GROUPS,
        /** {@code POST /rollouts/{id}/pause|resume|approve|deny}. */
        ROLLOUT_CHANGE,
        /** {@code GET /targetfilters} (a page) and {@code /targetfilters/{id}}. */
        TARGET_FILTERS,
        /** {@code POST} and {@code DELETE /targetfilters/{id}/autoAssignDS}. */
        AUTO_ASSIGN,
        OTHER
    }

    /** Which hawkBit's action representation to answer with. */
    public enum Shape {
        /** Up to 0.9 (checked against 0.3.0M7): status pending|finished, the result only in the status history. */
        V0_3,
        /** 0.10 and later: status running|finished|error|canceled, plus {@code active} and {@code detailStatus}. */
        V0_10
    }

    /** What a device does with an assigned set. */
    public enum Outcome {
        SUCCESS, FAILURE, NEVER
    }

    /** A distribution set as devices see it. */
    public record SetInfo(long id, String name, String version) {
        public String label() {
            return name + ":" + version;
        }
    }

    /** How a device answers an assignment: after {@link #delay}, with {@link #outcome}. */
    public interface DeviceRule {
        Duration delay(String controllerId, SetInfo set);

        Outcome outcome(String controllerId, SetInfo set);

        /** Every device succeeds after {@code delay}. */
        static DeviceRule succeedAfter(Duration delay) {
            return of(delay, (id, set) -> false);
        }

        /** Devices for which {@code fails} holds fail, the others succeed; all after {@code delay}. */
        static DeviceRule of(Duration delay, BiFunction<String, SetInfo, Boolean> fails) {
            return new DeviceRule() {
                @Override
                public Duration delay(String controllerId, SetInfo set) {
                    return delay;
                }

                @Override
                public Outcome outcome(String controllerId, SetInfo set) {
                    return fails.apply(controllerId, set) ? Outcome.FAILURE : Outcome.SUCCESS;
                }
            };
        }
    }

    /** Requests received per {@link Op}. */
    public record Counts(Map<Op, Long> byOp) {

        public long total() {
            return byOp.values().stream().mapToLong(Long::longValue).sum();
        }

        public long get(Op op) {
            return byOp.getOrDefault(op, 0L);
        }

        /** These counts minus an earlier snapshot. */
        public Counts minus(Counts earlier) {
            Map<Op, Long> out = new EnumMap<>(Op.class);
            for (Op op : Op.values()) {
                out.put(op, get(op) - earlier.get(op));
            }
            return new Counts(Collections.unmodifiableMap(out));
        }

        /** Non-zero counts, e.g. {@code targets 200, attributes 100000}. */
        public String perOperation() {
            StringBuilder sb = new StringBuilder();
            for (Op op : Op.values()) {
                long n = get(op);
                if (n != 0) {
                    sb.append(sb.length() == 0 ? "" : ", ").append(op.name().toLowerCase(Locale.ROOT)).append(' ')
                            .append(n);
                }
            }
            return sb.length() == 0 ? "none" : sb.toString();
        }

        @Override
        public String toString() {
            return total() + " (" + perOperation() + ")";
        }
    }

    /** A fleet made by {@link #populate}: system names in order, and each system's controller ids. */
    public record Population(List<String> systems, Map<String, List<String>> devicesBySystem, Map<String, String> typeOfDevice) {
        public int deviceCount() {
            return typeOfDevice.size();
        }
    }

    /**
     * One action as the double holds it: its target and set, when it was created and when the device finished it
     * (epoch millis of the double's clock; 0 while open), and its state (running, finished, error, canceled).
     */
    public record ActionView(long id, String controllerId, long setId, String state, boolean active, long createdAt,
            long finishedAt) {
    }

    /** One rollout as the double holds it ({@code status} in hawkBit's lower-case words). */
    public record RolloutView(long id, String name, String query, long setId, String status, long lastModifiedAt) {
    }

    /** One target filter as the double holds it; {@code autoAssignSetId} null when it assigns nothing. */
    public record FilterView(long id, String name, String query, Long autoAssignSetId, String actionType,
            long lastModifiedAt) {
    }
}
