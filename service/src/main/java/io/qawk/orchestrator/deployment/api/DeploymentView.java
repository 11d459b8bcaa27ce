package io.qawk.orchestrator.deployment.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.deployment.DeploymentReads;
import io.qawk.orchestrator.deployment.DeploymentOverlaps;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.qawk.orchestrator.window.CentreWindows;
import io.qawk.orchestrator.window.Windows;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A deployment as the API shows it: settings, phase, and how its systems stand in numbers and in words; which revision
 * of its manifest it runs (null while a draft) and whether the manifest has been changed since; its metric gate; its
 * maintenance {@code windows} as set (null: none), each centre's window now ({@code centreWindows}: the centres of its
 * systems, or of its settings while a draft; empty without windows) and how many pending systems wait for one
 * ({@code waitingForWindow}); who created, started, paused (while paused) and aborted it ({@code createdBy} …);
 * {@code overlaps} and {@code overlapsSummary}: as in its plan, the systems it has not started that another deployment
 * drives, and who (on the answer of its creation and of {@code GET {id}}, absent from the listing); {@code approval}:
 * four eyes (issue 42), whether it is required and by which rule, and who approved or rejected it, when, and why.
 * {@code failedBecause}: while FAILED, which limit stopped it, with its figures ({@code 1 system rolled back, maxFailed 0
 * allows none: no new system started, 1 not started}); null otherwise. Its counts and words count systems as the API
 * shows them ({@link RunState#seen}: a rollback asked for is rolling back) and held systems among the pending.
 * {@code diverged}: how many of its runs' records hawkBit's actions contradict (each says which in its
 * {@code divergence}); they wait for a person to adopt what hawkBit shows or roll back.
 */
public record DeploymentView(long id, String name, long manifestId, String manifestName,
                             @JsonProperty("fleetId") Long channelId,
                             List<String> groups, List<String> systems, int maxParallel, int maxFailed,
                             boolean byCentre, int orderTimeoutSeconds, int verifyTimeoutSeconds, int soakSeconds,
                             DeploymentPhase state, boolean paused,
                             boolean aborted, Counts counts, String summary, String failedBecause,
                             Instant createdAt, String createdBy,
                             Instant startedAt, String startedBy, String pausedBy, String abortedBy,
                             Instant endedAt, Integer manifestRevision,
                             boolean manifestChangedSince, MetricGate metricGate, Windows windows,
                             List<CentreWindows.CentreWindow> centreWindows, int waitingForWindow,
                             @JsonInclude(JsonInclude.Include.NON_NULL) List<ChannelDeployments.Overlap> overlaps,
                             @JsonInclude(JsonInclude.Include.NON_NULL) String overlapsSummary,
                             ApprovalView approval, int diverged) {

    /**
     * Four eyes: {@code required} and the {@code rule} in words (who must approve: an approver other than its creator);
     * {@code state}: {@code not required}, {@code awaiting}, {@code approved} or {@code rejected}; who approved or
     * rejected it, when, and the {@code comment}. An edit after an approval takes it back (awaiting again).
     */
    public record ApprovalView(boolean required, String rule, String state, String approvedBy, Instant approvedAt,
                               String rejectedBy, Instant rejectedAt, String comment) {

        static ApprovalView of(SystemDeployment d) {
            String state = d.rejectedBy != null ? "rejected" : d.approvedBy != null ? "approved"
                    : d.approvalRule != null ? "awaiting" : "not required";
            return new ApprovalView(d.approvalRule != null, d.approvalRule, state, d.approvedBy, d.approvedAt,
                    d.rejectedBy, d.rejectedAt, d.approvalComment);
        }
    }

    /**
     * Systems by how their runs stand; {@code verifying}: every order done, soaking before they count as updated;
     * {@code held}: of the pending, those a compatibility rule holds.
     */
    public record Counts(int systems, int pending, int running, int verifying, int rollingBack, int succeeded,
                         int rolledBack, int rollbackFailed, int skipped, int givenUp, int held) {

        static Counts of(List<SystemRun.Tally> runs) {
            int[] n = new int[RunState.values().length];
            int held = 0;
            for (SystemRun.Tally t : runs) {
                for (RunState shown : RunState.values()) {
                    n[shown.ordinal()] += (int) t.seenAs(shown);
                }
                held += (int) t.held();
            }
            return new Counts(Arrays.stream(n).sum(), n[RunState.PENDING.ordinal()], n[RunState.RUNNING.ordinal()],
                    n[RunState.VERIFYING.ordinal()], n[RunState.ROLLING_BACK.ordinal()], n[RunState.SUCCEEDED.ordinal()],
                    n[RunState.ROLLED_BACK.ordinal()], n[RunState.ROLLBACK_FAILED.ordinal()],
                    n[RunState.SKIPPED.ordinal()], n[RunState.GIVEN_UP.ordinal()], held);
        }

        /** "7 of 8 updated, 1 rolled back, 1 held" — with the worst case called out. */
        String words() {
            StringBuilder sb = new StringBuilder().append(succeeded).append(" of ").append(systems).append(" updated");
            int back = rolledBack + rollbackFailed;
            if (back > 0 || systems > 0) {
                sb.append(", ").append(back).append(" rolled back");
            }
            if (rollbackFailed > 0) {
                sb.append(" (").append(rollbackFailed).append(" failed to go back)");
            }
            if (held > 0) {
                sb.append(", ").append(held).append(" held");
            }
            if (running > 0) {
                sb.append(", ").append(running).append(" under way");
            }
            if (rollingBack > 0) {
                sb.append(", ").append(rollingBack).append(" rolling back");
            }
            if (verifying > 0) {
                sb.append(", ").append(verifying).append(" verifying");
            }
            if (skipped > 0) {
                sb.append(", ").append(skipped).append(" skipped");
            }
            if (givenUp > 0) {
                sb.append(", ").append(givenUp).append(" given up");
            }
            return sb.toString();
        }
    }

    /**
     * Why a FAILED deployment stopped: how many systems went back after a failure, the limit, and what it stopped
     * ("1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started"); null in any other phase.
     */
    static String failedBecause(SystemDeployment d, Counts c, List<SystemRun.Tally> runs) {
        if (d.phase != DeploymentPhase.FAILED) {
            return null;
        }
        long failures = runs.stream().filter(t -> t.state().wentBack() || t.state() == RunState.ROLLING_BACK)
                .mapToLong(SystemRun.Tally::failures).sum();
        return failures + (failures == 1 ? " system" : " systems") + " rolled back, maxFailed " + d.maxFailed
                + " allows " + (d.maxFailed == 0 ? "none" : String.valueOf(d.maxFailed)) + ": no new system started"
                + (c.pending() > 0 ? ", " + c.pending() + " not started" : "");
    }

    /**
     * The summary: how its systems stand, and when FAILED why; a channel's deployment with no system yet says so in the
     * words of its phase (finished, never "waiting" beside "finished"), and one that ended with no system ever in scope
     * says so, never like one that updated systems.
     */
    static String words(SystemDeployment d, Counts c, List<SystemRun.Tally> runs) {
        if (d.phase == DeploymentPhase.DRAFT) {
            return "draft: nothing moves until it is started";
        }
        if (d.phase == DeploymentPhase.AWAITING_APPROVAL) {
            return "awaiting approval: " + d.approvalRule;
        }
        if (d.phase == DeploymentPhase.REJECTED) {
            return "rejected by " + d.rejectedBy + ": " + d.approvalComment + "; it never started";
        }
        if (d.startedAt == null) {
            return "aborted as a draft: it was never started";
        }
        if (c.systems() > 0) {
            String failed = failedBecause(d, c, runs);
            return failed == null ? c.words() : c.words() + "; failed: " + failed;
        }
        boolean following = d.followsChannel && d.channelId != null && !d.aborted;
        if (following && d.phase == DeploymentPhase.FINISHED) {
            return "finished: no system in the channel's scope yet; it takes systems as they join";
        }
        if (following && d.phase == DeploymentPhase.RUNNING) {
            return "following the channel: no system in its scope yet";
        }
        return switch (d.phase) {
            case FINISHED -> "finished: no system was in scope";
            case ABORTED -> "aborted: no system was in scope";
            default -> c.words();
        };
    }

    /** {@code runs}: its runs counted by state and group, in the order of each one's first run. */
    static DeploymentView of(SystemDeployment d, String manifestName, List<SystemRun.Tally> runs, CentreWindows windows) {
        return of(d, manifestName, null, runs, windows, null);
    }

    /** A deployment as read, its centres' windows as they are now. */
    static DeploymentView of(DeploymentReads.Deployment read, CentreWindows windows) {
        return of(read.deployment(), read.manifestName(), read.pinned(), read.tally(), windows, read.overlaps());
    }

    /** {@code pinned}: the manifest revision it runs (null: none); {@code overlaps} null: not asked, as in the listing. */
    static DeploymentView of(SystemDeployment d, String manifestName, ManifestRevision.Pinned pinned,
                             List<SystemRun.Tally> runs, CentreWindows windows, List<ChannelDeployments.Overlap> overlaps) {
        Counts c = Counts.of(runs);
        List<CentreWindows.CentreWindow> centres = List.of();
        int waiting = 0;
        if (windows.any()) {
            Set<String> names = new LinkedHashSet<>();
            runs.forEach(t -> names.add(t.group()));
            if (runs.isEmpty()) {
                names.addAll(!d.groups.isEmpty() ? d.groups
                        : d.windows.centres() == null ? List.of() : d.windows.centres().keySet());
            }
            centres = names.stream().map(windows::state).toList();
            waiting = (int) runs.stream().filter(t -> t.state() == RunState.PENDING && windows.closed(t.group()))
                    .mapToLong(SystemRun.Tally::count).sum();
        }
        return new DeploymentView(d.id, d.name, d.manifestId, manifestName, d.channelId, d.groups, d.systems, d.maxParallel,
                d.maxFailed, d.byCentre, d.orderTimeoutSeconds, d.verifyTimeoutSeconds, d.soakSeconds, d.phase, d.paused,
                d.aborted, c,
                words(d, c, runs), failedBecause(d, c, runs),
                d.createdAt, d.createdBy, d.startedAt, d.startedBy, d.pausedBy, d.abortedBy, d.endedAt, pinned == null ? null : pinned.revision(),
                pinned != null && pinned.manifestChangedSince(), d.metricGate(), d.windows, centres, waiting,
                overlaps, overlaps == null ? null : DeploymentOverlaps.summary(overlaps), ApprovalView.of(d),
                d.diverged);
    }
}
