package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.observation.InFlight;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.plan.PlanInput;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a pass starts from, as {@link RunStore#load} read it: the deployment's phase and settings (its timeouts and
 * soak, as the planner keeps to them), the runs it may plan, the devices in flight, unconfirmed intents, the devices
 * that left their system and the metric gate. A value: the steps of the pass read it without asking the store again.
 */
public record DeploymentSnapshot(long deploymentId, DeploymentPhase phase, PlanInput.Settings settings,
                                 List<PlannableRun> runsToPlan, List<InFlight> inFlight, List<RunDevice> intents,
                                 Set<String> leftTheirSystem, MetricGate metricGate) {

    /**
     * A run the pass may plan, with its devices as they were loaded; for a soaking run what its health is judged by
     * (its system, the soak's span, each device's component).
     */
    public record PlannableRun(long id, RunState state, List<PlanInput.Device> devices, long systemTypeId,
                               String system, String group, Instant soakStartedAt, Instant soakEndsAt,
                               Map<String, String> componentOf) {
    }
}
