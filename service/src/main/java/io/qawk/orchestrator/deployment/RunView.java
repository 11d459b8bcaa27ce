package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.window.CentreWindows;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One system's run as the API shows it, with each component's devices (from-set → to-set, state). A pending system
 * whose centre's maintenance window is closed reads why ({@code waiting for c03's window (opens 02:00 …)}): read from
 * the windows and the clock when asked, never stored.
 */
public record RunView(long id, long deploymentId, String system, String group, RunState state, String reason,
                      int attempt, Integer currentOrder, Integer failedOrder, RollbackCause rollbackCause,
                      Instant startedAt, Instant endedAt, Map<String, List<DeviceView>> components) {

    /** A device of the run. */
    public record DeviceView(String controllerId, int order, Long fromSetId, String fromSet, long toSetId, String toSet,
                             DeviceState state, boolean failed, String detail, Long actionId, Instant assignedAt,
                             Instant finishedAt) {
    }

    static RunView of(SystemRun r, List<RunDevice> devices, CentreWindows windows) {
        Map<String, List<DeviceView>> components = new LinkedHashMap<>();
        for (RunDevice d : devices) {
            components.computeIfAbsent(d.componentType, k -> new java.util.ArrayList<>()).add(new DeviceView(
                    d.controllerId, d.order, d.fromSetId, d.fromSet, d.toSetId, d.toSet, d.state, d.failed, d.detail,
                    d.actionId, d.assignedAt, d.finishedAt));
        }
        String waiting = r.state == RunState.PENDING ? windows.waitingReason(r.group) : null;
        return new RunView(r.id, r.deploymentId, r.system, r.group, r.state, waiting != null ? waiting : r.reason,
                r.attempt, r.currentOrder,
                r.failedOrder, r.rollbackCause, r.startedAt, r.endedAt, components);
    }
}
