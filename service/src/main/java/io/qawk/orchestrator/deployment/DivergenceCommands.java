package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.deployment.engine.EngineWake;
import io.qawk.orchestrator.deployment.engine.LedgerCheck;
import io.qawk.orchestrator.deployment.model.Command;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.Ledger;
import io.qawk.orchestrator.deployment.store.DivergenceStore;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A person's choice for runs whose records are behind hawkBit: adopt what hawkBit shows. hawkBit's actions are read
 * again when asked, each run's state decided by {@link Ledger#adopt} (pure: an end state, or part-way the records the
 * engine goes on from), and all of them stored in one transaction, or none: one run hawkBit does not prove a state
 * for refuses the command, saying what hawkBit shows.
 */
@ApplicationScoped
public class DivergenceCommands {

    @Inject
    DivergenceStore store;

    @Inject
    LedgerCheck ledger;

    @Inject
    RunStore runs;

    @Inject
    DeploymentReads reads;

    @Inject
    DeploymentService service;

    @Inject
    Event<EngineWake> wakes;

    /** Adopts what hawkBit shows for one diverged run of the deployment ({@code runId}), or for all ({@code null}). */
    public void adopt(long deploymentId, Long runId, String actor) {
        if (runId != null) {
            reads.run(deploymentId, runId); // 404 when the run is not the deployment's
        }
        QuarkusTransaction.requiringNew().run(() -> { // the states say whether adopt is asked of what allows it
            service.get(deploymentId).check(Command.ADOPT);
            SystemRun run = runId == null ? null : SystemRun.findById(runId);
            if (run != null && !run.allows(Command.ADOPT)) {
                throw new ConflictException(run.refusal(Command.ADOPT));
            }
        });
        List<DivergenceStore.Recorded> diverged = store.diverged(deploymentId, runId);
        if (diverged.isEmpty()) { // none of its runs is behind (or the one asked was adopted meanwhile)
            throw new ConflictException(runId == null
                    ? "deployment " + deploymentId + " has no system whose records are behind hawkBit: nothing to adopt"
                    : "run " + runId + "'s records agree with hawkBit: nothing to adopt");
        }
        Map<Long, Ledger.Adoption> decided = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        for (DivergenceStore.Recorded run : diverged) {
            Ledger.Adoption a = Ledger.adopt(run.state(), LedgerCheck.recorded(run.devices()),
                    ledger.actions(run, true));
            if (a.refused()) {
                refused.add("run " + run.runId() + ": " + a.refusal());
            } else if (run.state() != a.state() && Ledger.path(run.state(), a.state()).isEmpty()) {
                refused.add("run " + run.runId() + " is " + run.state() + " and cannot become " + a.state() + " ("
                        + a.words() + ")");
            } else {
                decided.put(run.runId(), a);
            }
        }
        if (!refused.isEmpty()) {
            throw new ConflictException("nothing adopted: " + String.join("; ", refused));
        }
        QuarkusTransaction.requiringNew().run(() -> {
            store.adopt(decided, actor);
            runs.refreshPhase(deploymentId);
            wakes.fire(new EngineWake(deploymentId, "adopted what hawkBit shows"));
        });
    }
}
