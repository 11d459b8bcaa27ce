package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.plan.IntentRecovery;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.ActionOutcome;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pass's step "recover intents": devices whose assignment was decided in an earlier pass but not confirmed (the
 * service died, or hawkBit was down, between storing the intent and hawkBit's answer) adopt hawkBit's action when it
 * has one, so nothing is assigned twice; otherwise they go back to waiting and the planner sends them again. Which
 * action is ours is {@link IntentRecovery#adopted}'s pure decision; this asks hawkBit and stores the answer.
 */
@ApplicationScoped
public class IntentRecoverer {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    RunStore store;

    @Inject
    EngineMetrics metrics;

    @Inject
    Clock clock;

    /**
     * The snapshot with its intents settled: itself when it had none; else hawkBit is asked about each, and what it
     * said stored in one call to the store, which reads the deployment again.
     */
    DeploymentSnapshot recover(DeploymentSnapshot snap) {
        if (snap.intents().isEmpty()) {
            return snap;
        }
        List<RunStore.Settlement> found = new ArrayList<>();
        for (RunDevice d : snap.intents()) {
            Optional<IntentRecovery.Action> action;
            try {
                action = actionOfIntent(d);
            } catch (TargetNotFoundException gone) {
                found.add(RunStore.Settlement.adopted(d.runId, d.controllerId, null, clock.instant(),
                        "its target was deleted in hawkBit"));
                continue;
            }
            found.add(action.map(a -> RunStore.Settlement.adopted(d.runId, d.controllerId, a.id(),
                            a.createdAt() == null ? clock.instant() : a.createdAt(), null))
                    .orElseGet(() -> RunStore.Settlement.sendAgain(d.runId, d.controllerId)));
        }
        RunStore.Settled settled = store.settle(snap.deploymentId(), found);
        metrics.devicesAssigned(false, settled.confirmed().forward());
        metrics.devicesAssigned(true, settled.confirmed().back());
        return settled.snapshot();
    }

    /** hawkBit's action for an unconfirmed intent, if hawkBit took the assignment: see {@link IntentRecovery#adopted}. */
    private Optional<IntentRecovery.Action> actionOfIntent(RunDevice d) {
        IntentRecovery.Intent intent = new IntentRecovery.Intent(d.setInFlight(),
                d.state == DeviceState.ROLLBACK_ASSIGNING, d.intentAt, d.actionId);
        List<IntentRecovery.Action> actions = hawkbit.actions(d.controllerId, null).stream()
                .map(a -> new IntentRecovery.Action(a.id(), a.createdAt(), a.distributionSetId())).toList();
        return IntentRecovery.adopted(intent, actions, a -> {
            ActionOutcome outcome = hawkbit.actionOutcome(d.controllerId, a.id());
            return new IntentRecovery.DeviceNow(outcome,
                    outcome == ActionOutcome.RUNNING
                            ? hawkbit.assignedSet(d.controllerId).map(s -> s.id()).orElse(null) : null,
                    outcome == ActionOutcome.SUCCEEDED
                            ? hawkbit.installedSet(d.controllerId).map(s -> s.id()).orElse(null) : null);
        });
    }
}
