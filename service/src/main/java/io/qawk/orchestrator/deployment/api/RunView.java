package io.qawk.orchestrator.deployment.api;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.window.CentreWindows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One system's run as the API shows it, with each component's devices (from-set → to-set, state). A pending system
 * whose centre's maintenance window is closed reads why ({@code waiting for c03's window (opens 02:00 …)}): read from
 * the windows and the clock when asked, never stored. A run that soaks ({@code VERIFYING}) says from when to when
 * ({@code soakStartedAt}, {@code soakEndsAt}) and how many seconds are left ({@code soakSecondsLeft}, 0 once the end
 * is reached; null when it does not soak). Its {@code state} is the one a command caused ({@link RunState#seen}): a run
 * whose rollback is asked for reads ROLLING_BACK from the command's answer on. {@code divergence}: while its records
 * are behind hawkBit, which actions contradict them and what hawkBit shows ({@code records behind hawkBit: …}; nothing
 * new is sent to it until a person adopts what hawkBit shows or rolls it back); null while they agree.
 */
public record RunView(long id, long deploymentId, String system, String group, RunState state, String reason,
                      int attempt, Integer currentOrder, Integer failedOrder, RollbackCause rollbackCause,
                      Instant startedAt, Instant endedAt, Instant soakStartedAt, Instant soakEndsAt,
                      Long soakSecondsLeft, Map<String, List<DeviceView>> components, String divergence) {

    /**
     * A device of the run; {@code verify} and {@code health}: its component's queries as photographed (null: none);
     * {@code verifyingSince}: when it finished and began to wait for its verification query.
     */
    public record DeviceView(String controllerId, int order, Long fromSetId, String fromSet, long toSetId, String toSet,
                             DeviceState state, boolean failed, String detail, Long actionId, Instant assignedAt,
                             Instant finishedAt, String verify, String health, Instant verifyingSince) {
    }

    static RunView of(SystemRun r, List<RunDevice> devices, CentreWindows windows, Instant now) {
        Map<String, List<DeviceView>> components = new LinkedHashMap<>();
        for (RunDevice d : devices) {
            components.computeIfAbsent(d.componentType, k -> new ArrayList<>()).add(new DeviceView(
                    d.controllerId, d.order, d.fromSetId, d.fromSet, d.toSetId, d.toSet, d.state, d.failed, d.detail,
                    d.actionId, d.assignedAt, d.finishedAt, d.verifyQuery, d.healthQuery,
                    d.state == DeviceState.VERIFYING ? d.verifyingSince : null));
        }
        String waiting = r.state == RunState.PENDING ? windows.waitingReason(r.group) : null;
        Long left = r.state == RunState.VERIFYING && r.soakEndsAt != null
                ? Math.max(0, (Duration.between(now, r.soakEndsAt).toMillis() + 999) / 1000) : null;
        return new RunView(r.id, r.deploymentId, r.system, r.group, r.state.seen(r.rollbackCause), waiting != null ? waiting : r.reason,
                r.attempt, r.currentOrder, r.failedOrder, r.rollbackCause, r.startedAt, r.endedAt, r.soakStartedAt,
                r.soakEndsAt, left, components, r.divergence);
    }
}
