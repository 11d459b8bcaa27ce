package io.qawk.orchestrator.hawkbit;

import java.util.List;

/**
 * hawkBit's answer to a bulk assignment, summed over batches.
 *
 * @param assigned        targets that got a new action
 * @param alreadyAssigned targets whose assigned set already was this one (no new action)
 * @param total           targets hawkBit counted (unknown targets are silently missing here)
 * @param actionIds       ids of the new actions
 */
public record AssignmentResult(int assigned, int alreadyAssigned, int total, List<Long> actionIds) {

    public AssignmentResult {
        actionIds = List.copyOf(actionIds);
    }

    static AssignmentResult empty() {
        return new AssignmentResult(0, 0, 0, List.of());
    }

    /** Targets hawkBit accounted for. */
    public int accountedFor() {
        return assigned + alreadyAssigned;
    }

    AssignmentResult plus(AssignmentResult other) {
        var ids = new java.util.ArrayList<>(actionIds);
        ids.addAll(other.actionIds);
        return new AssignmentResult(assigned + other.assigned, alreadyAssigned + other.alreadyAssigned,
                total + other.total, ids);
    }
}
