package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.PlanInput.Checks;
import io.qawk.orchestrator.deployment.plan.PlanInput.Device;
import io.qawk.orchestrator.deployment.plan.PlanInput.Observed;
import io.qawk.orchestrator.deployment.plan.PlanInput.Photo;
import io.qawk.orchestrator.deployment.plan.PlanInput.Progress;
import io.qawk.orchestrator.deployment.plan.PlanInput.Run;
import io.qawk.orchestrator.deployment.plan.PlanInput.Settings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The decisions for one system's run, without database, HTTP or clock: given the photograph (each device's
 * from-set and to-set by order), what hawkBit says of the devices in flight, and the time, it says what each
 * device and the run become and which assignments to send.
 *
 * <p>Forward: the lowest order not yet done is sent (devices already on their set are skipped); nothing of the
 * next order goes out before every device of this one finished — and, where its component names a verification
 * query, matches it (it waits VERIFYING, and fails when it does not within the verify timeout). After the last order
 * a deployment with a soak keeps the run VERIFYING: it succeeds once the soak is over with the system healthy, and
 * goes back the moment it is not. A failed device (or a rollback asked for by hand)
 * waits for the devices still in flight, then sends every device this run updated back to its photographed set,
 * mirrored: highest order first, and the next lower order only once every device of this one is back, so the way back
 * crosses only states the way forward did. A device that fails to go back stops it there: the lower orders are KEPT on
 * their new sets (the state after their order going forward) and the run ends ROLLBACK_FAILED naming the device. A
 * device that ran nothing before is left as it is.
 *
 * <p>One class: the rules of a system's update interact (a failure while devices are in flight or verifying), so
 * they are one pure function, table-tested in one place.
 */
public final class RunPlanner {

    private RunPlanner() {
    }

    /** Send {@code setId} to {@code controllerId}; {@code rollback} when it is the photographed set going back. */
    public record Assign(String controllerId, long setId, boolean rollback, int order) {
    }

    /**
     * A device's new state, why (null: keep the last reason), whether it failed its update in this run and how
     * (null: it reported a failure, or it did not fail); {@code steps}: the states it went through to get there, in
     * order, each allowed by {@link DeviceState#to} from the one before (the last is {@code state}).
     */
    public record DeviceChange(DeviceState state, String detail, boolean failed, String failure, List<DeviceState> steps) {
    }

    /**
     * The outcome of one decision; {@code steps}: the states the run went through to {@code state}, in order, each
     * allowed by {@link RunState#to} from the one before (empty: it stays as it was); {@code rollbackReason}: the
     * person's words for a rollback by hand, or the words of a failure no device reported (the system became
     * unhealthy during its soak); {@code soakStartedAt}/{@code soakEndsAt}: the soak, once it began.
     */
    public record Decision(RunState state, List<RunState> steps, Integer currentOrder, Integer failedOrder,
                           RollbackCause rollbackCause, String reason, Map<String, DeviceChange> deviceChanges,
                           List<Assign> assignments, List<TimelineEvent> events, String rollbackReason,
                           Instant soakStartedAt, Instant soakEndsAt) {
        public boolean ended() {
            return state.terminal();
        }

        /**
         * Sets on {@code run} what this decision decided besides its move (the store moves it through the guard, and
         * writes): its orders and rollback; a new reason, else the one it had; its soak, only when one begins; its end
         * ({@code now}) when it ended.
         */
        public void settle(SystemRun run, Instant now) {
            run.currentOrder = currentOrder;
            run.failedOrder = failedOrder;
            run.rollbackCause = rollbackCause;
            run.rollbackReason = rollbackReason;
            if (soakStartedAt != null && run.soakStartedAt == null) {
                run.soakStartedAt = soakStartedAt;
                run.soakEndsAt = soakEndsAt;
            }
            if (reason != null) {
                run.reason = reason;
            }
            if (ended()) {
                run.endedAt = now;
            }
        }

        /** The events' words, as the timeline shows them. */
        public List<String> messages() {
            return events.stream().map(TimelineEvent::message).toList();
        }
    }

    public static Decision plan(PlanInput in) {
        return new Planning(in).run();
    }

    /**
     * hawkBit refused the sets sent to some devices of a run, with one answer ({@code statusAndReason}, e.g.
     * {@code 404 distribution set not found}); {@code sets}: each refused device with the name of the set it was sent.
     */
    public record Refusal(Map<String, String> sets, String statusAndReason) {
    }

    /**
     * hawkBit's refusal, observed as the assignments were sent: each refused device fails its step, forward (FAILED,
     * the refusal its failure) or back (ROLLBACK_FAILED), and the timeline says so. The run stays as it is: its next
     * plan sends it back, as after any failure.
     */
    public static Decision refused(Run run, Refusal refusal) {
        return new Planning(new PlanInput(run, Observed.NOTHING, Settings.orderTimeout(null), null)).refused(refusal);
    }

    /**
     * True when the run only waits for devices hawkBit is still working on: every device sent something is still
     * running and within its timeout, and nothing is half-sent. {@link #plan} would then decide nothing, so an
     * engine may skip it; at thousands of systems under way that is most of them on most passes.
     */
    public static boolean onlyWaiting(List<Device> devices, Map<String, Outcome> outcomes, Instant now,
                                      Duration orderTimeout) {
        boolean anyInFlight = false;
        for (Device d : devices) {
            Outcome news = outcomes.get(d.controllerId());
            if ((news == Outcome.LEFT || news == Outcome.TAKEN_OVER) && !d.state().outOfHands()) {
                return false;
            }
            if (d.state() == DeviceState.ASSIGNING || d.state() == DeviceState.ROLLBACK_ASSIGNING
                    || d.state() == DeviceState.VERIFYING) {
                return false; // a device waiting to verify is asked of hawkBit every pass: always planned
            }
            if (d.state() == DeviceState.ASSIGNED || d.state() == DeviceState.ROLLBACK_ASSIGNED) {
                anyInFlight = true;
                if (outcomes.getOrDefault(d.controllerId(), Outcome.RUNNING) != Outcome.RUNNING
                        || d.assignedAt() == null || d.timedOut(now, orderTimeout)) {
                    return false;
                }
            }
        }
        return anyInFlight;
    }

    public static final String FAILED_MARK = "failed";

    /** One decision in progress: devices are updated in place, changes recorded. */
    private static final class Planning {
        private final PlanInput in;
        private final Map<String, Device> devices = new LinkedHashMap<>();
        private final Map<String, DeviceChange> changes = new LinkedHashMap<>();
        private final List<Assign> assignments = new ArrayList<>();
        private final List<TimelineEvent> events = new ArrayList<>();
        private final List<RunState> steps = new ArrayList<>();
        private RunState state;
        private Integer currentOrder;
        private Integer failedOrder;
        private RollbackCause cause;
        private String reason;
        private String rollbackWords;
        private Instant soakStartedAt;
        private Instant soakEndsAt;
        /** The system became unhealthy during its soak (in this decision). */
        private boolean soakFailed;
        /** Devices an unhealthy verdict named, with the words their rows show when the system goes back. */
        private final Map<String, String> unhealthy = new LinkedHashMap<>();

        Planning(PlanInput in) {
            this.in = in;
            in.run().devices().forEach(d -> devices.put(d.controllerId(), d));
            state = in.run().state();
            currentOrder = in.run().currentOrder();
            failedOrder = in.run().failedOrder();
            cause = in.run().rollbackCause();
            rollbackWords = in.run().rollbackReason();
            soakStartedAt = in.run().soakStartedAt();
            soakEndsAt = in.run().soakEndsAt();
        }

        Decision run() {
            if (state.drives(cause) && state != RunState.ROLLING_BACK) {
                forward();
            }
            if (state == RunState.ROLLING_BACK) {
                backward();
            }
            return new Decision(state, List.copyOf(steps), currentOrder, failedOrder, cause, reason, changes,
                    assignments, events, rollbackWords, soakStartedAt, soakEndsAt);
        }

        Decision refused(Refusal refusal) {
            List<String> named = new ArrayList<>();
            String label = null;
            for (Device d : List.copyOf(devices.values())) {
                String set = refusal.sets().get(d.controllerId());
                if (set == null) {
                    continue;
                }
                String words = "hawkBit refused " + set + ": " + refusal.statusAndReason();
                if (d.state() == DeviceState.ASSIGNING) {
                    change(d, DeviceState.FAILED, FAILED_MARK + ": " + words, null, "hawkBit refused " + set + " for "
                            + d.controllerId() + ": " + refusal.statusAndReason());
                } else if (d.state() == DeviceState.ROLLBACK_ASSIGNING) {
                    change(d, DeviceState.ROLLBACK_FAILED, "failed to go back: " + words, null);
                } else {
                    continue;
                }
                named.add(d.controllerId());
                label = set;
            }
            if (!named.isEmpty()) {
                events.add(new TimelineEvent.AssignmentRefused(label, List.copyOf(named), refusal.statusAndReason()));
            }
            return new Decision(state, List.of(), currentOrder, failedOrder, cause, null, changes, assignments, events,
                    rollbackWords, soakStartedAt, soakEndsAt);
        }

        /** The run goes to {@code next}, through the guard. */
        private void moveRun(RunState next) {
            state = state.to(next);
            steps.add(next);
        }

        private void forward() {
            observeForward();
            boolean failure = devices.values().stream()
                    .anyMatch(d -> d.state() == DeviceState.FAILED || d.state().outOfHands());
            if (failure && cause == null) {
                cause = RollbackCause.FAILURE;
            }
            if (cause == null && state == RunState.VERIFYING) {
                soak();
                return;
            }
            if (cause != null) {
                if (devices.values().stream().anyMatch(d -> d.state().inFlight())) {
                    return; // devices of this order still at it: wait for them (or their timeout) before going back
                }
                startRollback();
                return;
            }
            List<Integer> orders = orders();
            int index = currentOrder == null ? 0 : Math.max(0, orders.indexOf(currentOrder));
            while (index < orders.size()) {
                int order = orders.get(index);
                if (!Objects.equals(currentOrder, order)) {
                    currentOrder = order;
                }
                sendOrder(order);
                if (!orderDone(order)) {
                    return;
                }
                index++;
            }
            if (state != RunState.SUCCEEDED) {
                long skipped = devices.values().stream().filter(d -> d.state() == DeviceState.ALREADY_ON_SET).count();
                reason = "every component is on its set" + (skipped > 0 ? " (" + skipped + " device(s) already were)" : "");
                Duration soak = in.settings().soak();
                if (!soak.isZero() && !soak.isNegative() && skipped < devices.size() && state == RunState.RUNNING) {
                    // updated (not merely found on its sets): the whole system must now stay healthy for the soak
                    moveRun(RunState.VERIFYING);
                    soakStartedAt = in.now();
                    soakEndsAt = in.now().plus(soak);
                    reason = reason + "; verifying: the system must stay healthy until " + TimelineEvent.clock(soakEndsAt);
                    events.add(new TimelineEvent.SoakStarted(soak, soakEndsAt));
                    return;
                }
                moveRun(RunState.SUCCEEDED);
                events.add(new TimelineEvent.Succeeded(reason));
            }
        }

        /**
         * The run soaks: unhealthy (as {@link SystemHealth} found it this pass) sends the whole system back, with the
         * words of why and how long after the update; healthy at the soak's end, it succeeds; unknown, it waits (past
         * the soak's end saying so).
         */
        private void soak() {
            Health health = in.observed().health();
            Instant since = soakStartedAt == null ? in.now() : soakStartedAt;
            if (health.verdict() == Health.Verdict.UNHEALTHY) {
                cause = RollbackCause.FAILURE;
                soakFailed = true;
                rollbackWords = health.why() + " " + about(Duration.between(since, in.now())) + " after the update";
                health.devices().forEach(id -> unhealthy.put(id, "unhealthy during the soak"));
                events.add(new TimelineEvent.SystemUnhealthy(rollbackWords, health.devices()));
                startRollback();
                return;
            }
            if (health.verdict() == Health.Verdict.HEALTHY && (soakEndsAt == null || !in.now().isBefore(soakEndsAt))) {
                moveRun(RunState.SUCCEEDED);
                long skipped = devices.values().stream().filter(d -> d.state() == DeviceState.ALREADY_ON_SET).count();
                reason = "every component is on its set" + (skipped > 0 ? " (" + skipped + " device(s) already were)" : "")
                        + " and the system stayed healthy for " + about(Duration.between(since, in.now()))
                        + " after the update";
                events.add(new TimelineEvent.Succeeded(reason));
            } else if (health.verdict() == Health.Verdict.UNKNOWN && soakEndsAt != null
                    && !in.now().isBefore(soakEndsAt)) {
                // over, but not known healthy (a gate that cannot tell): it waits, and says for what
                reason = "every component is on its set; the soak is over, waiting to know the system is healthy: "
                        + health.why();
            }
        }

        private void observeForward() {
            for (Device d : List.copyOf(devices.values())) {
                Outcome news = in.observed().outcomes().get(d.controllerId());
                if (news == Outcome.LEFT && (state == RunState.RUNNING || state == RunState.VERIFYING)
                        && !d.state().outOfHands()
                        && d.state() != DeviceState.ASSIGNING) {
                    // not this system's any more: whatever it got stays with it; the rest of the system goes back
                    String why = d.controllerId() + " left the system during the update";
                    change(d, DeviceState.LEFT_SYSTEM, "left the system during the update",
                            new TimelineEvent.DeviceLeftSystem(d.controllerId()), why);
                }
            }
            for (Device d : List.copyOf(devices.values())) {
                if (d.state() != DeviceState.ASSIGNED) {
                    continue;
                }
                Outcome o = in.observed().outcomes().getOrDefault(d.controllerId(), Outcome.RUNNING);
                switch (o) {
                    case TAKEN_OVER -> {
                        String set = in.observed().takenBy().getOrDefault(d.controllerId(), "another set");
                        String why = d.controllerId() + " was given " + set + " in hawkBit by someone else";
                        change(d, DeviceState.TAKEN_OVER, "given " + set + " in hawkBit by someone else",
                                new TimelineEvent.DeviceTakenOver(d.controllerId(), set, false), why);
                    }
                    case LEFT -> {
                    }
                    case SUCCEEDED -> {
                        if (d.verify() == null) {
                            change(d, DeviceState.SUCCEEDED, "installed",
                                    new TimelineEvent.DeviceFinished(d.controllerId(), false));
                        } else {
                            change(d, DeviceState.VERIFYING, "installed; waiting for it to report " + d.verify(),
                                    new TimelineEvent.DeviceFinished(d.controllerId(), false));
                            verify(devices.get(d.controllerId())); // it may say so already
                        }
                    }
                    case FAILED -> change(d, DeviceState.FAILED, FAILED_MARK,
                            new TimelineEvent.DeviceFailed(d.controllerId(), TimelineEvent.How.REPORTED, null));
                    case GONE -> change(d, DeviceState.FAILED, FAILED_MARK + ": the target was deleted in hawkBit",
                            new TimelineEvent.DeviceFailed(d.controllerId(), TimelineEvent.How.TARGET_DELETED, null));
                    case RUNNING -> {
                        if (timedOut(d)) {
                            String late = "did not finish within " + human(in.settings().orderTimeout());
                            change(d, DeviceState.FAILED, FAILED_MARK + ": " + late,
                                    new TimelineEvent.DeviceFailed(d.controllerId(), TimelineEvent.How.TIMED_OUT,
                                            in.settings().orderTimeout()),
                                    d.controllerId() + " " + late);
                        }
                    }
                }
            }
            verifyWaiting();
        }

        /**
         * After what hawkBit said of the devices in flight: every device that already waited to verify when the pass
         * began matches its query now (done), or does not and its verify timeout ran out (failed, with what it reports).
         */
        private void verifyWaiting() {
            for (Device before : in.run().devices()) {
                Device d = devices.get(before.controllerId());
                if (before.state() == DeviceState.VERIFYING && d.state() == DeviceState.VERIFYING) {
                    verify(d);
                }
            }
        }

        /** A device that finished: matching its verification query it is done; past its verify timeout it failed. */
        private void verify(Device d) {
            Boolean matches = in.observed().verified().get(d.controllerId());
            if (Boolean.TRUE.equals(matches)) {
                change(d, DeviceState.SUCCEEDED, "installed and reports " + d.verify(),
                        new TimelineEvent.DeviceVerified(d.controllerId(), d.verify()));
            } else if (Boolean.FALSE.equals(matches) && d.verifyTimedOut(in.now(), in.settings().verifyTimeout())) {
                String reports = in.observed().reports().get(d.controllerId());
                String what = "finished but does not report " + d.verify() + (reports == null ? "" : " (" + reports + ")");
                change(d, DeviceState.FAILED, FAILED_MARK + ": " + what + " within "
                                + human(in.settings().verifyTimeout()),
                        new TimelineEvent.DeviceNotVerified(d.controllerId(), d.verify(), reports,
                                in.settings().verifyTimeout()),
                        d.controllerId() + " " + what);
            }
        }

        private void sendOrder(int order) {
            List<String> sent = new ArrayList<>();
            for (Device d : List.copyOf(devices.values())) {
                if (d.order() != order) {
                    continue;
                }
                if (d.state() == DeviceState.WAITING) {
                    if (d.fromSetId() != null && d.fromSetId() == d.toSetId()) {
                        change(d, DeviceState.ALREADY_ON_SET, "already on its set", null);
                    } else {
                        change(d, DeviceState.ASSIGNING, null, null);
                        assignments.add(new Assign(d.controllerId(), d.toSetId(), false, order));
                        sent.add(d.controllerId());
                    }
                } else if (d.state() == DeviceState.ASSIGNING) {
                    // intent stored but not confirmed by hawkBit (crash or outage): the engine re-checks, then sends
                    assignments.add(new Assign(d.controllerId(), d.toSetId(), false, order));
                }
            }
            if (!sent.isEmpty()) {
                events.add(new TimelineEvent.OrderSent(order, List.copyOf(sent)));
            }
        }

        private boolean orderDone(int order) {
            return devices.values().stream().filter(d -> d.order() == order)
                    .allMatch(d -> d.state() == DeviceState.SUCCEEDED || d.state() == DeviceState.ALREADY_ON_SET);
        }

        private void startRollback() {
            moveRun(RunState.ROLLING_BACK);
            if (soakFailed) {
                failedOrder = null; // after every order: the system, not an order, failed
                events.add(TimelineEvent.RollbackStarted.unhealthy(rollbackWords));
            } else if (cause == RollbackCause.FAILURE) {
                failedOrder = devices.values().stream().filter(d -> d.state() == DeviceState.FAILED || d.state().outOfHands())
                        .map(Device::order).min(Integer::compare).orElse(currentOrder);
                long n = devices.values().stream().filter(d -> d.state() == DeviceState.FAILED || d.state().outOfHands()).count();
                events.add(TimelineEvent.RollbackStarted.failure(n, failedOrder));
            } else {
                events.add(TimelineEvent.RollbackStarted.byHand(in.run().rollbackReason()));
            }
            for (Device d : List.copyOf(devices.values())) {
                switch (d.state()) {
                    case SUCCEEDED, FAILED, VERIFYING -> {
                        if (d.fromSetId() == null) {
                            change(d, DeviceState.LEFT_AS_IS, "ran nothing before: left as it is", null);
                        } else {
                            change(d, DeviceState.ROLLBACK_WAITING, unhealthy.get(d.controllerId()), null);
                        }
                    }
                    case WAITING -> change(d, DeviceState.NOT_SENT, "its order was not reached", null);
                    default -> {
                    }
                }
            }
        }

        private void backward() {
            for (Device d : List.copyOf(devices.values())) {
                if (d.state() != DeviceState.ROLLBACK_ASSIGNED) {
                    continue;
                }
                Outcome o = in.observed().outcomes().getOrDefault(d.controllerId(), Outcome.RUNNING);
                switch (o) {
                    case SUCCEEDED -> change(d, DeviceState.ROLLED_BACK, "on its previous set again",
                            new TimelineEvent.DeviceFinished(d.controllerId(), true));
                    case FAILED -> change(d, DeviceState.ROLLBACK_FAILED, "failed to go back",
                            new TimelineEvent.DeviceFailedToGoBack(d.controllerId(), TimelineEvent.How.REPORTED, null));
                    case TAKEN_OVER -> {
                        String set = in.observed().takenBy().getOrDefault(d.controllerId(), "another set");
                        change(d, DeviceState.TAKEN_OVER, "given " + set + " in hawkBit by someone else",
                                new TimelineEvent.DeviceTakenOver(d.controllerId(), set, true));
                    }
                    case GONE -> change(d, DeviceState.ROLLBACK_FAILED, "failed to go back: the target was deleted in hawkBit",
                            new TimelineEvent.DeviceFailedToGoBack(d.controllerId(), TimelineEvent.How.TARGET_DELETED, null));
                    case RUNNING -> {
                        if (timedOut(d)) {
                            change(d, DeviceState.ROLLBACK_FAILED, "failed to go back within " + human(in.settings().orderTimeout()),
                                    new TimelineEvent.DeviceFailedToGoBack(d.controllerId(), TimelineEvent.How.TIMED_OUT,
                                            in.settings().orderTimeout()));
                        }
                    }
                }
            }
            if (devices.values().stream().anyMatch(d -> d.state() == DeviceState.ROLLBACK_ASSIGNED)) {
                return;
            }
            List<Device> assigning = devices.values().stream()
                    .filter(d -> d.state() == DeviceState.ROLLBACK_ASSIGNING).toList();
            if (!assigning.isEmpty()) {
                assigning.forEach(d -> assignments.add(new Assign(d.controllerId(), d.fromSetId(), true, d.order())));
                return;
            }
            Optional<Integer> highest = devices.values().stream().filter(d -> d.state() == DeviceState.ROLLBACK_WAITING)
                    .map(Device::order).max(Integer::compare);
            if (highest.isPresent() && devices.values().stream().anyMatch(d -> d.state() == DeviceState.ROLLBACK_FAILED)) {
                // a higher order did not go back: sending this one back would make a mix the way forward never passed
                // through (the new app with the old firmware); the lower orders stay where the update had put them
                for (Device d : List.copyOf(devices.values())) {
                    if (d.state() == DeviceState.ROLLBACK_WAITING) {
                        change(d, DeviceState.KEPT, "kept on its new set: a device of a higher order did not go back",
                                null);
                    }
                }
                highest = Optional.empty();
            }
            if (highest.isPresent()) {
                List<String> sent = new ArrayList<>();
                for (Device d : List.copyOf(devices.values())) {
                    if (d.state() == DeviceState.ROLLBACK_WAITING && d.order() == highest.get()) {
                        change(d, DeviceState.ROLLBACK_ASSIGNING, null, null);
                        assignments.add(new Assign(d.controllerId(), d.fromSetId(), true, d.order()));
                        sent.add(d.controllerId());
                    }
                }
                events.add(new TimelineEvent.RollbackSent(highest.get(), List.copyOf(sent)));
                return;
            }
            boolean anyFailedBack = devices.values().stream().anyMatch(d -> d.state() == DeviceState.ROLLBACK_FAILED);
            moveRun(anyFailedBack ? RunState.ROLLBACK_FAILED : RunState.ROLLED_BACK);
            reason = RollbackWords.reason(cause, rollbackWords, failedOrder, List.copyOf(devices.values()), Map.of());
            events.add(anyFailedBack ? new TimelineEvent.RollbackFailed(reason) : new TimelineEvent.RolledBack(reason));
        }

        private boolean timedOut(Device d) {
            return d.timedOut(in.now(), in.settings().orderTimeout());
        }

        private List<Integer> orders() {
            return devices.values().stream().map(Device::order).collect(Collectors.toCollection(TreeSet::new))
                    .stream().toList();
        }

        private void change(Device d, DeviceState newState, String detail, TimelineEvent event) {
            change(d, newState, detail, event, null);
        }

        /** The device goes to {@code newState}, through the guard; its steps in this decision are kept. */
        private void change(Device d, DeviceState newState, String detail, TimelineEvent event, String failure) {
            Device updated = d.with(d.state().to(newState), failure);
            devices.put(d.controllerId(), updated);
            DeviceChange before = changes.get(d.controllerId());
            String keptDetail = detail != null ? detail : before == null ? null : before.detail();
            String keptFailure = failure != null ? failure : before == null ? null : before.failure();
            List<DeviceState> steps = new ArrayList<>(before == null ? List.of() : before.steps());
            steps.add(newState);
            changes.put(d.controllerId(), new DeviceChange(newState, keptDetail, updated.failed(), keptFailure,
                    List.copyOf(steps)));
            if (event != null) {
                events.add(event);
            }
        }
    }

    /** About how long, for "3 min after the update": whole seconds under two minutes, else whole minutes. */
    static String about(Duration d) {
        long s = Math.max(0, d.getSeconds());
        return s < 120 ? s + " s" : s / 60 + " min";
    }

    static String human(Duration d) {
        return TimelineEvent.human(d);
    }
}
