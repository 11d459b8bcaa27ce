package io.qawk.orchestrator.guard;

import java.util.Set;

/**
 * One piece of hawkBit work outside Qawk that may move devices: a rollout, an auto-assignment or an open action, the
 * set it assigns ({@code name:version}) and the targets it would give it to, as hawkBit evaluated its query.
 *
 * @param status hawkBit's status of a rollout ({@code running}, {@code ready}, …); {@code active} for an
 *               auto-assignment, {@code open} for an action
 */
record PendingWork(ThreatSource source, long hawkbitId, String name, String status, long setId, String set,
        Set<String> targets) {

    PendingWork {
        targets = Set.copyOf(targets);
    }
}
