package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The ledger is hawkBit's: a run's records are checked against the actions hawkBit holds for its devices (ids only
 * grow; each names the Management API user that created it). An action newer than what a device's record names
 * contradicts the record: Qawk's user sent it and no record says so (its commit was lost: a restore, a standby
 * promoted), or someone replaced what Qawk had sent. Pure: the engine reads the actions and stores the verdict.
 */
public final class Ledger {

    /** The words a divergent run's reason and readers start with. */
    public static final String BEHIND = "records behind hawkBit: ";

    private Ledger() {
    }

    /**
     * An action hawkBit holds for a device: {@code status} as hawkBit names it (finished, error, canceled, running…),
     * {@code open} while the device has not ended it.
     */
    public record Action(long id, String createdBy, Long setId, String status, boolean open) {

        boolean finished() {
            return !open && "finished".equalsIgnoreCase(status);
        }
    }

    /** A device of a run as Qawk's records have it: {@code actionId} the last action recorded for it, if any. */
    public record Recorded(String controllerId, DeviceState state, Long actionId, Long fromSetId, String fromSet,
                           long toSetId, String toSet) {

        String nameOf(Long setId) {
            if (setId == null) {
                return "an unknown set";
            }
            if (setId == toSetId) {
                return toSet;
            }
            return setId.equals(fromSetId) && fromSet != null ? fromSet : "set " + setId;
        }
    }

    /** What contradicts a record: sent by Qawk's user with no record of it, or replaced by someone since. */
    public enum Kind { SENT_NOT_RECORDED, REPLACED }

    /** One device whose record hawkBit contradicts, with the actions that do, oldest first. */
    public record Finding(Kind kind, String controllerId, List<Long> actionIds, String words) {
    }

    /** The run's verdict: agreed when it has no finding; {@link #words} name the actions and what hawkBit shows. */
    public record Verdict(List<Finding> findings) {

        public boolean agrees() {
            return findings.isEmpty();
        }

        public String words() {
            if (agrees()) {
                return "records agree with hawkBit";
            }
            List<String> each = findings.stream().map(Finding::words).toList();
            return BEHIND + String.join("; ", each);
        }

        /** Every action named, oldest first. */
        public List<Long> actionIds() {
            return findings.stream().flatMap(f -> f.actionIds().stream()).sorted().toList();
        }
    }

    /**
     * The first action id that may be this run's: every action below it is older than the run's first recorded one
     * ({@code null} when no device records any: then only actions created since the run started count, which the
     * caller filters).
     */
    public static Long floor(List<Recorded> devices) {
        return devices.stream().map(Recorded::actionId).filter(Objects::nonNull).min(Long::compare).orElse(null);
    }

    /**
     * Checks a run's records against hawkBit: {@code actions} by device (any order), every one of them created since
     * the run started; {@code qawkUser} the Management API user Qawk sends as. Devices whose intent is stored but not
     * confirmed are left to intent recovery, which adopts hawkBit's action for them; devices recorded as out of the
     * run's hands (taken over, left the system) already say that hawkBit's later actions are someone else's.
     */
    public static Verdict check(List<Recorded> devices, Map<String, List<Action>> actions, String qawkUser) {
        Long floor = floor(devices);
        List<Finding> out = new ArrayList<>();
        for (Recorded d : devices) {
            if (d.state() == DeviceState.ASSIGNING || d.state() == DeviceState.ROLLBACK_ASSIGNING
                    || d.state().outOfHands()) {
                continue; // recovered by intent recovery; recorded as someone else's already
            }
            List<Action> newer = newer(d, actions.getOrDefault(d.controllerId(), List.of()), floor);
            if (newer.isEmpty()) {
                continue;
            }
            boolean allOurs = newer.stream().allMatch(a -> ours(a, d, qawkUser));
            Action newest = newer.get(newer.size() - 1);
            List<Long> ids = newer.stream().map(Action::id).toList();
            String named = (ids.size() == 1 ? "action " : "actions ")
                    + String.join(", ", ids.stream().map(String::valueOf).toList());
            String shows = "hawkBit shows " + d.nameOf(newest.setId()) + " " + (newest.open() ? "open (" + newest.status()
                    + ")" : newest.status());
            if (allOurs) {
                out.add(new Finding(Kind.SENT_NOT_RECORDED, d.controllerId(), ids, d.controllerId() + ": " + named
                        + " sent by Qawk's user, in no record (recorded " + recorded(d) + "); " + shows));
            } else {
                String by = newer.stream().filter(a -> !ours(a, d, qawkUser)).map(a -> a.id() + " by "
                        + Objects.requireNonNullElse(a.createdBy(), "an unknown user")).findFirst().orElseThrow();
                out.add(new Finding(Kind.REPLACED, d.controllerId(), ids, d.controllerId() + ": " + named
                        + " since its record (recorded " + recorded(d) + "), replaced by action " + by + "; " + shows));
            }
        }
        return new Verdict(out);
    }

    private static String recorded(Recorded d) {
        return d.state().name() + (d.actionId() == null ? "" : " with action " + d.actionId());
    }

    /** Qawk's own: created by its user, for this device's destination or photograph. */
    private static boolean ours(Action a, Recorded d, String qawkUser) {
        return qawkUser != null && qawkUser.equals(a.createdBy()) && a.setId() != null
                && (a.setId() == d.toSetId() || a.setId().equals(d.fromSetId()));
    }

    /** The device's actions after its record (or after the run's floor when it records none), oldest first. */
    private static List<Action> newer(Recorded d, List<Action> actions, Long floor) {
        Long after = d.actionId() != null ? d.actionId() : floor == null ? null : floor - 1;
        return actions.stream().filter(a -> after == null || a.id() > after)
                .sorted(Comparator.comparingLong(Action::id)).toList();
    }

    // ------------------------------------------------------------------------------------------------ adopt

    /**
     * What a run becomes when a person adopts what hawkBit shows: its end state and each device's, or why not
     * ({@code refusal}, with the other fields empty). {@code underWay}: the run keeps its state and the engine goes on
     * from the adopted records ({@code devices} then holds only the devices whose record changes); {@code cause} set
     * when hawkBit shows the system going back, which the engine then finishes.
     */
    public record Adoption(RunState state, boolean failed, Map<String, DeviceState> devices,
                           Map<String, Long> actionIds, String words, String refusal, boolean underWay,
                           RollbackCause cause) {

        public boolean refused() {
            return refusal != null;
        }
    }

    /**
     * The state hawkBit's actions prove for a run in {@code state} ({@code actions} as for {@link #check}): every
     * device's newest action finished on its destination → SUCCEEDED; every device back on its photograph (or never
     * sent) → ROLLED_BACK ({@code failed} when hawkBit shows a device's destination failed). A run going forward
     * (RUNNING) that is part-way takes hawkBit's actions as its records and goes on ({@link Adoption#underWay}): an
     * action on a device's new set, open or ended, is recorded as sent (the engine observes and verifies it as if its
     * commit had not been lost); a device back on its photograph is rolled back, and the system goes on back. Refused,
     * saying what hawkBit shows: an open action while the system goes back, a set that is neither the device's new one
     * nor its photograph, a mix of old and new in a run not going forward.
     */
    public static Adoption adopt(RunState state, List<Recorded> devices, Map<String, List<Action>> actions) {
        Long floor = floor(devices);
        Map<String, DeviceState> states = new LinkedHashMap<>();
        Map<String, Long> ids = new LinkedHashMap<>();
        Map<String, DeviceState> partWay = new LinkedHashMap<>();
        Map<String, Long> partWayIds = new LinkedHashMap<>();
        boolean forward = state == RunState.RUNNING;
        boolean allOn = true;
        boolean allBack = true;
        boolean anyFailed = false;
        boolean anyBack = false;
        String open = null;
        String foreign = null;
        List<String> shows = new ArrayList<>();
        for (Recorded d : devices) {
            List<Action> all = actions.getOrDefault(d.controllerId(), List.of()).stream()
                    .filter(a -> floor == null || a.id() >= floor)
                    .sorted(Comparator.comparingLong(Action::id)).toList();
            anyFailed |= all.stream().anyMatch(a -> Objects.equals(a.setId(), d.toSetId()) && !a.open()
                    && "error".equalsIgnoreCase(a.status()));
            Optional<Action> newest = all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
            boolean on;
            boolean back;
            if (newest.isEmpty()) {
                on = d.state() == DeviceState.ALREADY_ON_SET || d.state() == DeviceState.SUCCEEDED;
                back = !on || d.fromSetId() != null && d.fromSetId() == d.toSetId();
                states.put(d.controllerId(), on ? d.state() : DeviceState.NOT_SENT);
                shows.add(d.controllerId() + " " + (on ? "on " + d.toSet() : "not sent"));
            } else {
                Action a = newest.get();
                boolean toNew = Objects.equals(a.setId(), d.toSetId());
                boolean toOld = !toNew && Objects.equals(a.setId(), d.fromSetId());
                on = a.finished() && toNew;
                back = a.finished() && toOld;
                anyBack |= back;
                if (a.open() && open == null && !(forward && toNew)) {
                    open = "action " + a.id() + " on " + d.controllerId() + " (" + d.nameOf(a.setId())
                            + ") is still open; adopt once hawkBit's actions have ended";
                }
                if (foreign == null && !toNew && !toOld) {
                    foreign = d.controllerId() + " is on a set that is neither its new one nor its photograph";
                } else if (foreign == null && toOld && !a.open() && !back) {
                    foreign = d.controllerId() + " failed to go back to its photograph";
                }
                states.put(d.controllerId(), on ? DeviceState.SUCCEEDED : DeviceState.ROLLED_BACK);
                ids.put(d.controllerId(), a.id());
                if (!Objects.equals(a.id(), d.actionId())) { // the record names an older action or none
                    partWay.put(d.controllerId(), back ? DeviceState.ROLLED_BACK : DeviceState.ASSIGNED);
                    partWayIds.put(d.controllerId(), a.id());
                }
                shows.add(d.controllerId() + " " + d.nameOf(a.setId()) + " " + (a.open() ? "open (" + a.status() + ")"
                        : a.status()) + " (action " + a.id() + ")");
            }
            allOn &= on;
            allBack &= back;
        }
        if (open != null) {
            return refused(open);
        }
        String words = "hawkBit shows " + String.join(", ", shows);
        if (allOn) {
            return new Adoption(RunState.SUCCEEDED, false, states, ids, words, null, false, null);
        }
        if (allBack) {
            return new Adoption(RunState.ROLLED_BACK, anyFailed, states, ids, words, null, false, null);
        }
        if (forward && foreign == null) {
            Map<String, DeviceState> recorded = new LinkedHashMap<>();
            devices.forEach(d -> recorded.put(d.controllerId(), d.state()));
            for (Map.Entry<String, DeviceState> e : partWay.entrySet()) {
                DeviceState was = recorded.get(e.getKey());
                if (was != e.getValue() && path(was, e.getValue()).isEmpty()) { // the same state: only its action
                    return refused(words + ": " + e.getKey() + " is recorded " + was
                            + " and cannot be recorded " + e.getValue() + "; put the system right in hawkBit first,"
                            + " or abort the deployment");
                }
            }
            RollbackCause cause = !anyBack ? null : anyFailed ? RollbackCause.FAILURE : RollbackCause.MANUAL;
            return new Adoption(state, anyFailed, partWay, partWayIds, words, null, true, cause);
        }
        return refused(words + ": " + (foreign != null ? foreign
                : "neither every device on its new set nor every one back on its photograph")
                + "; put the system right in hawkBit first (then adopt again), or abort the deployment");
    }

    private static Adoption refused(String why) {
        return new Adoption(null, false, Map.of(), Map.of(), null, why, false, null);
    }

    /**
     * The moves, each through the guard, that take a device from {@code from} to {@code to} (empty when it is there);
     * the shortest, breadth first. Empty too when there is none: the caller leaves such a device as it is.
     */
    public static List<DeviceState> path(DeviceState from, DeviceState to) {
        return shortest(from, to, DeviceState::next, DeviceState.class);
    }

    /** As {@link #path(DeviceState, DeviceState)}, for a run. */
    public static List<RunState> path(RunState from, RunState to) {
        return shortest(from, to, RunState::next, RunState.class);
    }

    private static <E extends Enum<E>> List<E> shortest(E from, E to, Function<E, ? extends Iterable<E>> next,
                                                       Class<E> type) {
        if (from == to) {
            return List.of();
        }
        Map<E, E> cameFrom = new EnumMap<>(type);
        Deque<E> queue = new ArrayDeque<>(List.of(from));
        cameFrom.put(from, from);
        while (!queue.isEmpty()) {
            E at = queue.poll();
            for (E n : next.apply(at)) {
                if (cameFrom.containsKey(n)) {
                    continue;
                }
                cameFrom.put(n, at);
                if (n == to) {
                    List<E> out = new ArrayList<>();
                    for (E s = n; s != from; s = cameFrom.get(s)) {
                        out.add(0, s);
                    }
                    return out;
                }
                queue.add(n);
            }
        }
        return List.of();
    }
}
