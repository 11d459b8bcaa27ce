package io.qawk.orchestrator.deployment.model;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One entry of a run's timeline as data: its {@link RunEventKind}, its fields, and the words operators read
 * ({@link #message()}). The timeline stores all three; nothing reads the words back to learn what happened.
 * <p>
 * One type: a small record per kind with its words, read together when the timeline's wording is checked.
 */
public sealed interface TimelineEvent {

    RunEventKind kind();

    /** What operators read in the timeline. */
    String message();

    /** How the timeline writes times: UTC, with the date only where a span crosses midnight. */
    final class TimeFormats {
        static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
        static final DateTimeFormatter DATE_TIME =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

        private TimeFormats() {
        }
    }

    /** {@code 18:25:16 UTC}: a time as the timeline's words give it. */
    static String clock(Instant at) {
        return TimeFormats.TIME.format(at) + " UTC";
    }

    /** {@code 18:25:16–18:26:01 UTC}, with dates when it spans midnight. */
    static String span(Instant from, Instant to) {
        boolean sameDay = from.truncatedTo(ChronoUnit.DAYS)
                .equals(to.truncatedTo(ChronoUnit.DAYS));
        DateTimeFormatter f = sameDay ? TimeFormats.TIME : TimeFormats.DATE_TIME;
        return f.format(from) + "–" + f.format(to) + " UTC";
    }

    /** A timeout or an extension in the timeline's words: whole minutes when it is some, else seconds. */
    static String human(Duration d) {
        if (d.toMinutes() >= 1 && d.toSecondsPart() == 0) {
            return d.toMinutes() + " min";
        }
        return d.toSeconds() + " s";
    }

    /** How a device failed its step: it said so, its target was deleted in hawkBit, or it took too long. */
    enum How { REPORTED, TARGET_DELETED, TIMED_OUT }

    /** The system came into scope ({@code why}: of which deployment and manifest, or that it joined the channel). */
    record Created(String why) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.CREATED;
        }

        public String message() {
            return why;
        }
    }

    record Waiting(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.WAITING;
        }

        public String message() {
            return reason;
        }
    }

    record GivenUp(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.GIVEN_UP;
        }

        public String message() {
            return reason;
        }
    }

    /** A device as photographed: {@code fromSet} null when it ran nothing. */
    record Photo(String controllerId, String component, int order, String fromSet, String toSet) {
    }

    record Snapshot(List<Photo> devices) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.SNAPSHOT;
        }

        public String message() {
            return "photographed " + devices.size() + " device(s): " + devices.stream()
                    .map(d -> d.controllerId() + " (" + d.component() + ", order " + d.order() + ") runs "
                            + (d.fromSet() == null ? "nothing" : d.fromSet()) + ", gets " + d.toSet())
                    .collect(Collectors.joining("; "));
        }
    }

    /**
     * A device hawkBit showed on its destination {@code set} already, given it by {@code actionId} of Qawk's user after
     * the deployment started, with no record of it (Qawk's own lost work): its photograph is the set it finished
     * before that action ({@code before}; null when hawkBit's history shows none), not the destination.
     */
    record PhotographRebuilt(String controllerId, long actionId, String set, String before) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.PHOTOGRAPH_REBUILT;
        }

        public String message() {
            return "photograph of " + controllerId + " rebuilt from hawkBit's action history: it runs " + set
                    + " since action " + actionId + ", sent by Qawk's user after this deployment started and in no"
                    + " record (Qawk's records of it were lost); before that it ran "
                    + (before == null ? "nothing" : before);
        }
    }

    record OrderSent(int order, List<String> devices) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ORDER_SENT;
        }

        public String message() {
            return "order " + order + " sent to " + String.join(", ", devices);
        }
    }

    /** A device hawkBit assigned a set to, with hawkBit's action (null when hawkBit named none). */
    record Assignment(String controllerId, Long actionId) {
    }

    record Assigned(long setId, List<Assignment> devices) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ASSIGNED;
        }

        public String message() {
            return "hawkBit assigned set " + setId + " to " + devices.stream()
                    .map(a -> a.controllerId() + (a.actionId() == null ? "" : " (action " + a.actionId() + ")"))
                    .collect(Collectors.joining(", "));
        }
    }

    /**
     * hawkBit accepted {@code order}'s assignment {@code gap} after {@code lastDevice}, the last device of
     * {@code finishedOrder} to finish, finished in hawkBit ({@code finishedAt}, hawkBit's time).
     */
    record OrderGap(int order, int finishedOrder, String lastDevice, Instant finishedAt, Duration gap)
            implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ORDER_GAP;
        }

        public String message() {
            return "order " + order + " assigned " + String.format(Locale.ROOT, "%.1f s", gap.toMillis() / 1000.0)
                    + " after order " + finishedOrder + "'s last device (" + lastDevice + ") finished in hawkBit at "
                    + clock(finishedAt);
        }
    }

    record Recovered(String controllerId, Long actionId) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.RECOVERED;
        }

        public String message() {
            return "assignment of " + controllerId + " found in hawkBit after an interruption"
                    + (actionId == null ? "" : " (action " + actionId + ")");
        }
    }

    /** {@code statusAndReason}: hawkBit's answer, e.g. {@code 404 distribution set not found}. */
    record AssignmentRefused(String set, List<String> devices, String statusAndReason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ASSIGNMENT_REFUSED;
        }

        public String message() {
            return "hawkBit refused " + set + " for " + String.join(", ", devices) + ": " + statusAndReason;
        }
    }

    /** {@code back}: it finished going back to its photographed set. */
    record DeviceFinished(String controllerId, boolean back) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_FINISHED;
        }

        public String message() {
            return "device " + controllerId + (back ? " is on its previous set again" : " finished");
        }
    }

    /** {@code timeout}: the order timeout it missed, when {@code how} is TIMED_OUT. */
    record DeviceFailed(String controllerId, How how, Duration timeout) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_FAILED;
        }

        public String message() {
            return "device " + controllerId + " failed" + switch (how) {
                case REPORTED -> "";
                case TARGET_DELETED -> ": its target was deleted in hawkBit";
                case TIMED_OUT -> ": no result within " + human(timeout);
            };
        }
    }

    /** A device that finished matches its component's verification query ({@code query}). */
    record DeviceVerified(String controllerId, String query) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_VERIFIED;
        }

        public String message() {
            return "device " + controllerId + " reports " + query;
        }
    }

    /**
     * A device finished but did not match its verification query within {@code timeout}; {@code reports}: what it
     * reports instead ({@code reports 1.9}), null when that could not be told.
     */
    record DeviceNotVerified(String controllerId, String query, String reports, Duration timeout)
            implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_NOT_VERIFIED;
        }

        public String message() {
            return "device " + controllerId + " failed: it finished but does not report " + query + " within "
                    + human(timeout) + (reports == null ? "" : " (" + reports + ")");
        }
    }

    /** Every order is done: the whole system must stay healthy for {@code soak}, until {@code until}. */
    record SoakStarted(Duration soak, Instant until) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.SOAK_STARTED;
        }

        public String message() {
            return "every component is on its set; verifying for " + human(soak) + ", until " + clock(until)
                    + ": every device must keep reporting its health query";
        }
    }

    /** During the soak the system stopped being healthy ({@code why}, with how long after the update). */
    record SystemUnhealthy(String why, List<String> devices) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.SYSTEM_UNHEALTHY;
        }

        public String message() {
            return why;
        }
    }

    /**
     * From {@code from} to {@code to} the deployment was not observed ({@code cause}); the soak goes on for that much
     * longer, to {@code endsAt}.
     */
    record SoakExtended(String cause, Instant from, Instant to, Duration extension, Instant endsAt)
            implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.SOAK_EXTENDED;
        }

        public String message() {
            return "not observed " + span(from, to) + " (" + cause + "); the soak extended by " + human(extension)
                    + ", to " + clock(endsAt);
        }
    }

    record DeviceLeftSystem(String controllerId) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_LEFT_SYSTEM;
        }

        public String message() {
            return "device " + controllerId + " left the system during the update";
        }
    }

    /** {@code set}: what someone else gave it; {@code back}: it happened while it was going back. */
    record DeviceTakenOver(String controllerId, String set, boolean back) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_TAKEN_OVER;
        }

        public String message() {
            return "device " + controllerId + " was given " + set + " in hawkBit by someone else"
                    + (back ? ": left with it" : "");
        }
    }

    /**
     * The system goes back: for a failure, {@code failedDevices} failed at {@code failedOrder}; by hand, with the
     * person's {@code reason} (or none).
     */
    record RollbackStarted(RollbackCause cause, Integer failedOrder, Long failedDevices, String reason)
            implements TimelineEvent {
        public static RollbackStarted failure(long failedDevices, Integer failedOrder) {
            return new RollbackStarted(RollbackCause.FAILURE, failedOrder, failedDevices, null);
        }

        public static RollbackStarted byHand(String reason) {
            return new RollbackStarted(RollbackCause.MANUAL, null, null, reason);
        }

        /** The system became unhealthy during its soak ({@code reason}: why). */
        public static RollbackStarted unhealthy(String reason) {
            return new RollbackStarted(RollbackCause.FAILURE, null, null, reason);
        }

        public RunEventKind kind() {
            return RunEventKind.ROLLBACK_STARTED;
        }

        public String message() {
            if (cause == RollbackCause.MANUAL) {
                return "rollback by hand" + (reason == null ? "" : ": " + reason);
            }
            return failedOrder == null && reason != null ? "unhealthy during the soak: the whole system goes back"
                    : failedDevices + " device(s) failed at order " + failedOrder + ": the whole system goes back";
        }
    }

    record RollbackSent(int order, List<String> devices) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ROLLBACK_SENT;
        }

        public String message() {
            return "rollback of order " + order + " sent to " + String.join(", ", devices);
        }
    }

    /** {@code timeout}: the order timeout it missed, when {@code how} is TIMED_OUT. */
    record DeviceFailedToGoBack(String controllerId, How how, Duration timeout) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DEVICE_FAILED_TO_GO_BACK;
        }

        public String message() {
            return "device " + controllerId + " FAILED TO GO BACK" + switch (how) {
                case REPORTED -> "";
                case TARGET_DELETED -> ": its target was deleted in hawkBit";
                case TIMED_OUT -> " within " + human(timeout);
            };
        }
    }

    /** {@code reason}: the run's reason ({@code every component is on its set …}). */
    record Succeeded(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.SUCCEEDED;
        }

        public String message() {
            return "succeeded: " + reason;
        }
    }

    /** {@code reason}: the run's reason, as {@link RunPlanner#rollbackReason} words it. */
    record RolledBack(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ROLLED_BACK;
        }

        public String message() {
            return "rolled back: " + reason;
        }
    }

    record RollbackFailed(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ROLLBACK_FAILED;
        }

        public String message() {
            return "rollback failed: " + reason;
        }
    }

    /**
     * From {@code from} to {@code to} the deployment was not observed ({@code cause}: {@code hawkBit unreachable},
     * {@code paused}, …); its devices in flight got {@code extension} more time.
     */
    record TimeoutsExtended(String cause, Instant from, Instant to, Duration extension) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.TIMEOUTS_EXTENDED;
        }

        public String message() {
            return "not observed " + span(from, to) + " (" + cause + "); order timeouts extended by "
                    + human(extension);
        }
    }

    /**
     * From {@code from} to {@code to} hawkBit's rate limit (429) held Qawk's requests for {@code waited}: hawkBit was
     * busy, no device failed; its devices in flight got that much more time.
     */
    record RateLimited(Instant from, Instant to, Duration waited) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.RATE_LIMITED;
        }

        public String message() {
            return "waited " + human(waited) + " on hawkBit's rate limit (429) " + span(from, to)
                    + "; order timeouts extended by " + human(waited);
        }
    }

    /**
     * Qawk's records of this run are behind hawkBit ({@code actionIds}: the actions that contradict them, oldest
     * first; {@code words}: which, and what hawkBit shows): nothing new is sent for the system until a person adopts
     * what hawkBit shows or rolls it back.
     */
    record Diverged(List<Long> actionIds, String words) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.DIVERGED;
        }

        public String message() {
            return words + " -- nothing new is sent to this system until a person adopts what hawkBit shows or rolls"
                    + " it back";
        }
    }

    /** A person adopted what hawkBit shows ({@code words}): the run is now {@code state}. */
    record Adopted(RunState state, String words) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ADOPTED;
        }

        public String message() {
            return "adopted what hawkBit shows: " + state + " (" + words + ")";
        }
    }

    record Paused() implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.PAUSED;
        }

        public String message() {
            return "deployment paused: nothing new is sent; devices already sent a set finish it";
        }
    }

    record Resumed() implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.RESUMED;
        }

        public String message() {
            return "deployment resumed";
        }
    }

    record Skipped() implements TimelineEvent {
        public static final String REASON = "skipped: the deployment was aborted before this system was started";

        public RunEventKind kind() {
            return RunEventKind.SKIPPED;
        }

        public String message() {
            return REASON;
        }
    }

    /** {@code reason}: the person's, or null. */
    record RollbackRequested(String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.ROLLBACK_REQUESTED;
        }

        public String message() {
            return "rollback by hand requested" + (reason == null ? "" : ": " + reason);
        }
    }

    /**
     * Taken again: by a person ({@code attempt}, their {@code reason} or null, the reason it had {@code before}), or
     * because it came {@code backInScope} of its channel.
     */
    record TakenAgain(boolean backInScope, Integer attempt, String reason, String before) implements TimelineEvent {
        public static TakenAgain byPerson(int attempt, String reason, String before) {
            return new TakenAgain(false, attempt, reason, before);
        }

        public static TakenAgain cameBackIntoScope() {
            return new TakenAgain(true, null, null, null);
        }

        public RunEventKind kind() {
            return RunEventKind.TAKEN_AGAIN;
        }

        public String message() {
            return backInScope ? "back in the channel's scope: taken again"
                    : "taken again (attempt " + attempt + ")" + (reason == null ? "" : ": " + reason) + "; before: " + before;
        }
    }

    /**
     * The guard stopped hawkBit work outside Qawk whose targets include {@code members} of this run's system:
     * {@code what} it did ({@code paused}, {@code denied}, {@code switched_off}, {@code cancelled}), to which hawkBit
     * object ({@code source}: {@code rollout}, {@code autoAssignment}, {@code assignment}; its id and name), the hold's
     * id in {@code GET /qawk/v1/threats/holds}, and its {@code reason} as stored there.
     */
    record GuardHold(long holdId, String what, String source, long hawkbitId, String name, List<String> members,
                     String reason) implements TimelineEvent {
        public RunEventKind kind() {
            return RunEventKind.GUARD_HOLD;
        }

        public String message() {
            return reason + (members.isEmpty() ? "" : " (it targets " + String.join(", ", members)
                    + " of this system)");
        }
    }
}
