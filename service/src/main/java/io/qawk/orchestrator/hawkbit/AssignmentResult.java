package io.qawk.orchestrator.hawkbit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * hawkBit's answer to a bulk assignment, summed over batches.
 *
 * @param assigned        targets that got a new action
 * @param alreadyAssigned targets whose assigned set already was this one (no new action)
 * @param total           targets hawkBit counted (unknown targets are silently missing here)
 * @param actionIds       ids of the new actions
 * @param actionByTarget  the new action of each target, where hawkBit's answer links them
 */
public record AssignmentResult(int assigned, int alreadyAssigned, int total, List<Long> actionIds,
                               Map<String, Long> actionByTarget) {

    public AssignmentResult {
        actionIds = List.copyOf(actionIds);
        actionByTarget = Map.copyOf(actionByTarget);
    }

    public AssignmentResult(int assigned, int alreadyAssigned, int total, List<Long> actionIds) {
        this(assigned, alreadyAssigned, total, actionIds, Map.of());
    }

    static AssignmentResult empty() {
        return new AssignmentResult(0, 0, 0, List.of());
    }

    /** Targets hawkBit accounted for. */
    public int accountedFor() {
        return assigned + alreadyAssigned;
    }

    AssignmentResult plus(AssignmentResult other) {
        var ids = new ArrayList<>(actionIds);
        ids.addAll(other.actionIds);
        var byTarget = new HashMap<>(actionByTarget);
        byTarget.putAll(other.actionByTarget);
        return new AssignmentResult(assigned + other.assigned, alreadyAssigned + other.alreadyAssigned,
                total + other.total, ids, byTarget);
    }
}
