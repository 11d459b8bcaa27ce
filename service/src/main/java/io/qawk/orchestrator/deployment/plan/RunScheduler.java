package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.TimelineEvent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which pending systems a deployment starts now: in their sequence (centres in the deployment's order, then by
 * system name), never more under way than {@code maxParallel}, and with {@code byCentre} only from the first centre
 * that still has systems not done. Once more systems failed than {@code maxFailed} allows, or while the channel's
 * release is halted, only systems a person took again are started: the budget and the halt stop systems that were
 * never started, not a person's decision about one system. Systems {@code blocked} (another deployment drives them,
 * they are not whole in the channel) are passed over and do not take a slot. Nor do systems of a centre whose
 * maintenance window is {@code closed} (taken again or not); with {@code byCentre} a closed centre holds the later
 * centres back like a centre under way does, since byCentre promises one centre after the other. Systems under way
 * are never stopped by a window: they finish or roll back.
 */
public final class RunScheduler {

    private RunScheduler() {
    }

    /** The systems to start now; {@code closed} says of a centre (null: a system without one) whether its window is shut. */
    public static List<DeploymentPhase.RunSummary> toStart(DeploymentPhase phase, int maxParallel, int maxFailed,
                                                    boolean byCentre, boolean halted,
                                                    List<DeploymentPhase.RunSummary> runs, Set<Long> blocked,
                                                    Predicate<String> closed) {
        return candidates(phase, maxFailed, byCentre, halted, runs, closed).stream()
                .filter(r -> !blocked.contains(r.id()))
                .limit(slots(maxParallel, runs))
                .toList();
    }

    /** Every centre open. */
    public static List<DeploymentPhase.RunSummary> toStart(DeploymentPhase phase, int maxParallel, int maxFailed,
                                                    boolean byCentre, boolean halted,
                                                    List<DeploymentPhase.RunSummary> runs, Set<Long> blocked) {
        return toStart(phase, maxParallel, maxFailed, byCentre, halted, runs, blocked, ALWAYS_OPEN);
    }

    /** Without halts, blocked systems or windows (tests and callers that have none). */
    public static List<DeploymentPhase.RunSummary> toStart(DeploymentPhase phase, int maxParallel, int maxFailed,
                                                    boolean byCentre, List<DeploymentPhase.RunSummary> runs) {
        return toStart(phase, maxParallel, maxFailed, byCentre, false, runs, Set.of());
    }

    static final Predicate<String> ALWAYS_OPEN = centre -> false;

    /** How many more systems may be under way. */
    public static int slots(int maxParallel, List<DeploymentPhase.RunSummary> runs) {
        long underWay = runs.stream().filter(r -> r.state().underWay()).count();
        return (int) Math.max(0, maxParallel - underWay);
    }

    /**
     * Every pending system that may start if nothing blocks it, in the order they are taken (the caller checks
     * the first ones for blocks and hands those to {@link #toStart}).
     */
    public static List<DeploymentPhase.RunSummary> candidates(DeploymentPhase phase, int maxFailed, boolean byCentre,
                                                       boolean halted, List<DeploymentPhase.RunSummary> runs,
                                                       Predicate<String> closed) {
        if (phase != DeploymentPhase.RUNNING) {
            return List.of();
        }
        List<DeploymentPhase.RunSummary> bySeq = runs.stream()
                .sorted(Comparator.comparingInt(DeploymentPhase.RunSummary::seq)).toList();
        if (halted || DeploymentPhase.failures(runs) > maxFailed) {
            return bySeq.stream().filter(r -> r.state() == RunState.PENDING && r.takenAgain())
                    .filter(r -> !closed.test(r.group())).toList();
        }
        String centre = null;
        if (byCentre) {
            centre = bySeq.stream().filter(r -> !r.state().terminal()).map(r -> String.valueOf(r.group()))
                    .findFirst().orElse(null);
        }
        String onlyCentre = centre;
        return bySeq.stream()
                .filter(r -> r.state() == RunState.PENDING)
                .filter(r -> onlyCentre == null || onlyCentre.equals(String.valueOf(r.group())))
                .filter(r -> !closed.test(r.group()))
                .toList();
    }

    /**
     * What becomes of a pending run the start gate held back: given up when its system vanished (none of its devices
     * is in the inventory any more: it never will start, and is never counted as updated), else it keeps its place
     * and waits, with the gate's reason.
     */
    public record Hold(long runId, String reason, boolean giveUp) {

        /** Whether a run whose reason reads {@code reasonNow} is told new words (stored, and on its timeline). */
        public boolean newWords(String reasonNow) {
            return !reason.equals(reasonNow);
        }

        /** What its timeline is told with new words: it waits, or it is given up. */
        public TimelineEvent event() {
            return giveUp ? new TimelineEvent.GivenUp(reason) : new TimelineEvent.Waiting(reason);
        }
    }

    /**
     * The holds of the runs the start gate held back ({@code verdicts} by run id), of runs whose reasons read
     * {@code reasonsRead}: only those that change something, a give-up always, a wait only with new words.
     */
    public static List<Hold> holds(Map<Long, StartRules.Verdict> verdicts, Map<Long, String> reasonsRead) {
        List<Hold> out = new ArrayList<>();
        verdicts.forEach((runId, verdict) -> {
            Hold h = new Hold(runId, verdict.reason(), verdict.vanished());
            if (h.giveUp() || h.newWords(reasonsRead.get(runId))) {
                out.add(h);
            }
        });
        return out;
    }

    /** What becomes of a channel deployment's run when the channel's scope is asked again. */
    public enum Follow {
        /** Given up because it left the scope, and back in it: pending again. */
        TAKE_AGAIN,
        /** Pending, and its devices left the channel (or its centres) before it was reached. */
        GIVE_UP,
        KEEP;

        public static final String LEFT = "given up: its devices left the channel (or its centres) before the"
                + " orchestrator reached it";

        /**
         * Whether it changes a run now in {@code state} (it was decided on the run read unlocked): taken again only
         * while still GIVEN_UP, given up only while still PENDING; KEEP changes nothing.
         */
        public boolean appliesTo(RunState state) {
            return switch (this) {
                case TAKE_AGAIN -> state == RunState.GIVEN_UP;
                case GIVE_UP -> state == RunState.PENDING;
                case KEEP -> false;
            };
        }
    }

    /**
     * A run in {@code state} whose system is {@code inScope} of its channel now, or not, and then maybe only
     * {@code moving} (mixed: some of its devices are in the channel), which is not given up.
     */
    public static Follow follow(RunState state, boolean inScope, boolean moving) {
        if (inScope) {
            return state == RunState.GIVEN_UP ? Follow.TAKE_AGAIN : Follow.KEEP;
        }
        return state == RunState.PENDING && !moving ? Follow.GIVE_UP : Follow.KEEP;
    }

    /** What becomes of a run the scheduler picked, once its system is photographed. */
    public enum Start {
        /** Started by another pass or replica meanwhile (or skipped): left as it is. */
        NOT_PENDING,
        /** Its devices vanished between the gate and the photograph: never "updated". */
        GIVE_UP,
        START;

        public static final String GIVEN_UP = "given up: none of its devices is in the inventory any more";
    }

    /** A run in {@code state} whose photograph holds {@code photographedDevices} devices. */
    public static Start start(RunState state, int photographedDevices) {
        if (state != RunState.PENDING) {
            return Start.NOT_PENDING;
        }
        return photographedDevices == 0 ? Start.GIVE_UP : Start.START;
    }
}
