package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.deployment.model.DeploymentEnded;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.List;

/**
 * Writes a deployment's phase as its runs make it, and tells the observers of {@link DeploymentEnded} (the evidence
 * record, after the commit) when that write ends it: the one place a deployment's end is announced.
 */
@ApplicationScoped
public class PhaseRefresh {

    @Inject
    Event<DeploymentEnded> ended;

    public void refresh(SystemDeployment d, List<DeploymentPhase.RunSummary> runs, Instant now) {
        if (d.refreshPhase(runs, now)) {
            ended.fire(new DeploymentEnded(d.id));
        }
    }
}
