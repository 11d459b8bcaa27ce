package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.observation.Outcome;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions of a channel release, as pure functions of the release and its channel's budgets, the standalone
 * members, what hawkBit said and the time: no database, no hawkBit, no clock. The {@link ReleaseEngine} loads, asks
 * here, stores what was decided and only then calls hawkBit; each step of a pass has its function.
 *
 * <ol>
 *   <li>{@link #membership}: pending devices that are no longer standalone members leave; new members join;</li>
 *   <li>{@link #observed}: devices in flight that finished, failed, vanished, were taken over or timed out; the
 *       device budget (a halt); how many pending devices the next batch takes;</li>
 *   <li>{@link #toAssign} and {@link #sent}: of the batch, those already on the set are not sent; what hawkBit
 *       answered becomes each device's state;</li>
 *   <li>{@link #evaluate}: the systems' budget (a halt), and whether the release is complete or reopened.</li>
 * </ol>
 * A halted release never resumes here: only a person resumes it.
 */
public final class ReleasePlanner {

    private ReleasePlanner() {
    }

    /** A standalone device of the release, as stored (its hawkBit action, when known, is for the observer). */
    public record Device(String controllerId, ReleaseDevice.State state, Instant assignedAt, Long actionId) {
    }

    /** The release and its channel's settings, as the planner needs them. */
    public record Release(boolean halted, int acceptedFailures, Instant completedAt, String channel,
                          int deviceMaxFailed, int deviceBatchSize, int maxFailed) {
    }

    /**
     * A device's new state and the words operators see ({@code detail}; null keeps the old); sent devices also get
     * the time they were assigned and hawkBit's action.
     */
    public record Change(String controllerId, ReleaseDevice.State state, String detail, Instant assignedAt,
                         Long actionId) {

        static Change to(String controllerId, ReleaseDevice.State state, String detail) {
            return new Change(controllerId, state, detail, null, null);
        }
    }

    /** Why the release halts. */
    public record Halt(ChannelRelease.HaltCause cause, String reason) {
    }

    /** Step 1: pending devices that left (changed to {@code LEFT}), and members the release does not know yet. */
    public record Membership(List<Change> left, List<String> joined) {
    }

    /** Step 2: the devices in flight that have news, a halt of the device budget if any, and the next batch's size. */
    public record Observed(List<Change> changes, Optional<Halt> halt, int batchSize) {
    }

    /** Step 4: a halt of the systems' budget if any, and what becomes of the release's completion. */
    public record Evaluation(Optional<Halt> halt, Completion completion) {
    }

    /** Whether the release's completion time is set now, cleared now, or stays as it is. */
    public enum Completion { COMPLETED, REOPENED, UNCHANGED }

    static final String LEFT_DETAIL = "no longer a standalone member before the set was sent: it left the channel,"
            + " or matches a component of a system type now";

    /** The channel's deployment takes arrivals and gives up leavers on every pass, but not while the release is halted. */
    public static boolean followsChannel(boolean halted, Long deploymentId) {
        return deploymentId != null && !halted;
    }

    /**
     * A device still pending that is no longer a standalone member (it left the channel, or a component of a system
     * type matches it now) leaves the release; a member the release does not know joins it, pending. Devices already
     * sent the set stay, whatever their membership.
     */
    public static Membership membership(List<Device> known, Set<String> members) {
        List<Change> left = new ArrayList<>();
        Set<String> knownIds = new HashSet<>();
        for (Device d : known) {
            knownIds.add(d.controllerId());
            if (d.state() == ReleaseDevice.State.PENDING && !members.contains(d.controllerId())) {
                left.add(Change.to(d.controllerId(), ReleaseDevice.State.LEFT, LEFT_DETAIL));
            }
        }
        List<String> joined = members.stream().filter(id -> !knownIds.contains(id)).sorted().toList();
        return new Membership(left, joined);
    }

    /**
     * What hawkBit said of the devices in flight ({@code assigned}; a device hawkBit said nothing of is still at
     * it): installed is {@code ON_SET}; failed, deleted in hawkBit, or given another set by someone else is
     * {@code FAILED}, and so is one without a result within {@code timeout} of its assignment. Then the device budget:
     * more failures ({@code failedBefore}, counted before this step, plus those now) beyond those a person accepted
     * than the channel allows halts the release, unless it is halted already. A halted release takes no batch;
     * otherwise the batch fills what the devices still in flight leave of the channel's batch size.
     */
    public static Observed observed(Release release, List<Device> assigned, Map<String, Outcome> outcomes,
                                    long failedBefore, Instant now, Duration timeout) {
        List<Change> changes = new ArrayList<>();
        long failed = failedBefore;
        for (Device d : assigned) {
            Outcome o = outcomes.getOrDefault(d.controllerId(), Outcome.RUNNING);
            if (o == Outcome.SUCCEEDED) {
                changes.add(Change.to(d.controllerId(), ReleaseDevice.State.ON_SET, null));
            } else if (o == Outcome.FAILED || o == Outcome.GONE || o == Outcome.TAKEN_OVER) {
                changes.add(Change.to(d.controllerId(), ReleaseDevice.State.FAILED, o == Outcome.GONE
                        ? "its target was deleted in hawkBit"
                        : o == Outcome.TAKEN_OVER ? "given another set in hawkBit by someone else"
                        : "the device reported a failure"));
                failed++;
            } else if (d.assignedAt() != null && !now.isBefore(d.assignedAt().plus(timeout))) {
                changes.add(Change.to(d.controllerId(), ReleaseDevice.State.FAILED,
                        "no result within " + timeout.toMinutes() + " min"));
                failed++;
            }
        }
        Optional<Halt> halt = Optional.empty();
        if (!release.halted() && failed - release.acceptedFailures() > release.deviceMaxFailed()) {
            halt = Optional.of(new Halt(ChannelRelease.HaltCause.DEVICES, failed + " standalone device(s) failed, more than"
                    + " channel '" + release.channel() + "' allows (" + release.deviceMaxFailed() + ")"));
        }
        int stillInFlight = assigned.size() - changes.size();
        int batch = release.halted() || halt.isPresent() ? 0 : Math.max(0, release.deviceBatchSize() - stillInFlight);
        return new Observed(changes, halt, batch);
    }

    /** Of the batch, the devices to send the set: not those hawkBit says already run it. */
    public static List<String> toAssign(List<String> batch, Set<String> alreadyOnSet) {
        return batch.stream().filter(id -> !alreadyOnSet.contains(id)).toList();
    }

    /**
     * What becomes of the batch's devices after hawkBit's answer: {@code ALREADY} when they ran the set before,
     * {@code FAILED} when hawkBit no longer knows them ({@code dropped}), else {@code ASSIGNED} at {@code now} with
     * hawkBit's action (when it named one).
     */
    public static List<Change> sent(List<String> batch, Set<String> alreadyOnSet, Set<String> dropped,
                                    Map<String, Long> actionByTarget, String setLabel, Instant now) {
        List<Change> out = new ArrayList<>();
        for (String id : batch) {
            if (alreadyOnSet.contains(id)) {
                out.add(Change.to(id, ReleaseDevice.State.ALREADY, "already on " + setLabel));
            } else if (dropped.contains(id)) {
                out.add(Change.to(id, ReleaseDevice.State.FAILED, "hawkBit no longer knows this target"));
            } else {
                out.add(new Change(id, ReleaseDevice.State.ASSIGNED, null, now, actionByTarget.get(id)));
            }
        }
        return out;
    }

    /**
     * The end of a pass: a failed deployment (more systems rolled back than its orchestrator allows) halts the
     * release, unless it is halted already. The release is complete when its standalone half has no device pending or
     * in flight ({@code devicesOpen}; no set, no half), its deployment has finished (no manifest, no half), and it is
     * not halted; a complete release that is no longer complete (a system joined, a device came) is reopened.
     *
     * @param phase        the phase of the release's deployment, null when it has none
     * @param rolledBack   how many of its systems were rolled back (named in the halt's reason)
     * @param hasSet       whether the release sends a set to standalone devices
     * @param devicesOpen  how many of those are pending or in flight
     */
    public static Evaluation evaluate(Release release, DeploymentPhase phase, int rolledBack, boolean hasSet,
                                      long devicesOpen) {
        Optional<Halt> halt = Optional.empty();
        if (phase == DeploymentPhase.FAILED && !release.halted()) {
            halt = Optional.of(new Halt(ChannelRelease.HaltCause.SYSTEMS, rolledBack + " system(s) rolled back, more than"
                    + " the orchestrator of '" + release.channel() + "' allows (" + release.maxFailed() + ")"));
        }
        boolean halted = release.halted() || halt.isPresent();
        boolean devicesDone = !hasSet || devicesOpen == 0;
        boolean systemsDone = phase == null || phase == DeploymentPhase.FINISHED;
        boolean complete = devicesDone && systemsDone && !halted;
        Completion completion = complete && release.completedAt() == null ? Completion.COMPLETED
                : !complete && release.completedAt() != null ? Completion.REOPENED
                : Completion.UNCHANGED;
        return new Evaluation(halt, completion);
    }
}
