package io.qawk.orchestrator.hawkbit;

import java.time.Instant;
import java.util.Set;

/**
 * A rollout of hawkBit's, started outside Qawk: which targets (its filter query), which set, and how far it is.
 *
 * @param status hawkBit's status in lower case ({@code creating}, {@code ready}, {@code waiting_for_approval},
 *               {@code scheduled}, {@code starting}, {@code running}, {@code paused}, {@code finished}, …)
 */
public record HawkbitRollout(long id, String name, String status, String targetQuery, Long distributionSetId,
        Instant lastModifiedAt) {

    /** Not finished: it may still assign its set to targets that do not have it. */
    private static final Set<String> OPEN = Set.of("creating", "ready", "waiting_for_approval", "scheduled",
            "starting", "running", "paused");

    /** Still able to move targets (created, waiting, running or paused): a rollout that may assign its set. */
    public boolean open() {
        return OPEN.contains(status);
    }

    /** Assigning now: its groups are being started or run. */
    public boolean moving() {
        return "running".equals(status) || "starting".equals(status);
    }

    /** Waiting for a person to approve it (hawkBit's rollout approval is on). */
    public boolean awaitingApproval() {
        return "waiting_for_approval".equals(status);
    }

    public boolean paused() {
        return "paused".equals(status);
    }
}
