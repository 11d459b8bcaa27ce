package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.systemtype.RuleWitness;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.function.Supplier;

/**
 * The deployments' part of what a rule going away exposes: the pending runs it holds now (their reason {@code held: …
 * (rules[i] needs …)}), which the next start judges by the new rules.
 */
@ApplicationScoped
public class HeldByRule implements RuleWitness {

    @Override
    public Supplier<List<String>> exposedBy(SystemType type, int index) {
        List<String> words = SystemRun.<SystemRun>list("systemTypeId = ?1 and state = ?2 and reason like ?3"
                        + " order by system, deploymentId", type.id, RunState.PENDING, "held:%(rules[" + index + "] needs%")
                .stream().map(r -> r.system + " no longer held (deployment " + r.deploymentId + ")").toList();
        return () -> words;
    }
}
