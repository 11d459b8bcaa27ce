package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one decision of {@link RunPlanner} depends on: the run as stored ({@link Run}, its {@link Device}s with
 * their {@link Photo}, {@link Progress} and {@link Checks}), what this pass observed ({@link Observed}), the
 * deployment's {@link Settings}, and the time. Plain values, built by the engine's observe step and by the tests.
 */
public record PlanInput(Run run, Observed observed, Settings settings, Instant now) {

    /**
     * A device of the run as stored: what its photograph says ({@link Photo}), where it is in this run
     * ({@link Progress}) and what its component asks of it ({@link Checks}).
     */
    public record Device(String controllerId, Photo photo, Progress progress, Checks checks) {

        public Device {
            checks = checks == null ? Checks.NONE : checks;
        }

        /** A run's device as the planner sees it. */
        public static Device of(RunDevice d) {
            return new Device(d.controllerId, new Photo(d.order, d.fromSetId, d.toSetId),
                    new Progress(d.state, d.assignedAt, d.failed, d.failure, Duration.ofSeconds(d.unobservedSeconds),
                            d.verifyingSince),
                    new Checks(d.verifyQuery, d.healthQuery));
        }

        public int order() {
            return photo.order();
        }

        public Long fromSetId() {
            return photo.fromSetId();
        }

        public long toSetId() {
            return photo.toSetId();
        }

        public DeviceState state() {
            return progress.state();
        }

        public Instant assignedAt() {
            return progress.assignedAt();
        }

        public boolean failed() {
            return progress.failed();
        }

        public String failure() {
            return progress.failure();
        }

        public Duration unobserved() {
            return progress.unobserved();
        }

        public Instant verifyingSince() {
            return progress.verifyingSince();
        }

        public String verify() {
            return checks.verify();
        }

        public String health() {
            return checks.health();
        }

        Device with(DeviceState newState, String newFailure) {
            return new Device(controllerId, photo, new Progress(newState, progress.assignedAt(),
                    progress.failed() || newState == DeviceState.FAILED || newState.outOfHands(),
                    newFailure != null ? newFailure : progress.failure(), progress.unobserved(),
                    progress.verifyingSince()), checks);
        }

        /** Past its order timeout at {@code now}: assigned longer ago than the timeout plus its unobserved time. */
        boolean timedOut(Instant now, Duration orderTimeout) {
            return assignedAt() != null && orderTimeout != null
                    && !now.isBefore(assignedAt().plus(orderTimeout).plus(unobserved()));
        }

        /**
         * Waiting to verify for longer than {@code verifyTimeout} plus its unobserved time (counted afresh from when
         * it finished): if it still does not match its verification query, it has failed.
         */
        public boolean verifyTimedOut(Instant now, Duration verifyTimeout) {
            return state() == DeviceState.VERIFYING && verifyingSince() != null && verifyTimeout != null
                    && !now.isBefore(verifyingSince().plus(verifyTimeout).plus(unobserved()));
        }
    }

    /** What a device's photograph says: at which order it goes from which set (null: it ran none) to which. */
    public record Photo(int order, Long fromSetId, long toSetId) {
    }

    /**
     * Where a device is in this run: its state, since when its current assignment runs, whether it failed its forward
     * update in this run and how ({@code failure}, when that is more than "it reported a failure": words for the run's
     * reason naming the device, {@code lane-07-a did not finish within 30 min}); {@code unobserved}: time of its
     * current assignment during which hawkBit could not be observed or the deployment was paused, which does not count
     * toward its timeouts; {@code verifyingSince}: when it finished and began to wait for its verification.
     */
    public record Progress(DeviceState state, Instant assignedAt, boolean failed, String failure, Duration unobserved,
                           Instant verifyingSince) {

        public Progress {
            unobserved = unobserved == null ? Duration.ZERO : unobserved;
        }

        /** A device in {@code state} that has not been sent anything yet, nor failed. */
        public static Progress of(DeviceState state) {
            return new Progress(state, null, false, null, Duration.ZERO, null);
        }
    }

    /** What a device's component asks of it: its verification query and its health query (null: none). */
    public record Checks(String verify, String health) {
        public static final Checks NONE = new Checks(null, null);
    }

    /**
     * The run as stored: its state, the order under way, how it goes back ({@code failedOrder}, {@code rollbackCause},
     * {@code rollbackReason}: the person's words for a rollback by hand), its soak once it began, and its devices.
     */
    public record Run(RunState state, Integer currentOrder, Integer failedOrder, RollbackCause rollbackCause,
                      String rollbackReason, Instant soakStartedAt, Instant soakEndsAt, List<Device> devices) {

        /** A stored run with its devices, as the planner sees them. */
        public static Run of(SystemRun run, List<RunDevice> devices) {
            return new Run(run.state, run.currentOrder, run.failedOrder, run.rollbackCause, run.rollbackReason,
                    run.soakStartedAt, run.soakEndsAt, devices.stream().map(Device::of).toList());
        }
    }

    /**
     * What this pass observed: hawkBit's news of the devices in flight ({@code outcomes}, with those that left their
     * system), for devices {@link Outcome#TAKEN_OVER} the set someone else gave them ({@code takenBy}), whether devices
     * waiting to verify match their query now ({@code verified}; absent: not asked, which never fails one), for a
     * device about to fail verification what it reports instead ({@code reports}), and for a soaking run whether its
     * system is still healthy ({@code health}).
     */
    public record Observed(Map<String, Outcome> outcomes, Map<String, String> takenBy, Map<String, Boolean> verified,
                           Map<String, String> reports, Health health) {

        /** Nothing asked, nothing heard: a run just photographed. */
        public static final Observed NOTHING = new Observed(Map.of(), Map.of(), Map.of(), Map.of(), null);

        public Observed {
            outcomes = outcomes == null ? Map.of() : outcomes;
            takenBy = takenBy == null ? Map.of() : takenBy;
            verified = verified == null ? Map.of() : verified;
            reports = reports == null ? Map.of() : reports;
            health = health == null ? Health.unknown("not asked") : health;
        }

        /** Only hawkBit's news of the devices in flight. */
        public static Observed outcomes(Map<String, Outcome> outcomes) {
            return new Observed(outcomes, Map.of(), Map.of(), Map.of(), null);
        }

        /** The same with a soaking run's verdict. */
        public Observed withHealth(Health h) {
            return new Observed(outcomes, takenBy, verified, reports, h);
        }
    }

    /** The deployment's settings the decision keeps to: its order timeout, verify timeout and soak. */
    public record Settings(Duration orderTimeout, Duration verifyTimeout, Duration soak) {

        public Settings {
            verifyTimeout = verifyTimeout == null
                    ? Duration.ofSeconds(SystemDeployment.DEFAULT_VERIFY_TIMEOUT_SECONDS) : verifyTimeout;
            soak = soak == null ? Duration.ZERO : soak;
        }

        /** An order timeout, the default verify timeout, no soak. */
        public static Settings orderTimeout(Duration orderTimeout) {
            return new Settings(orderTimeout, null, null);
        }
    }
}
