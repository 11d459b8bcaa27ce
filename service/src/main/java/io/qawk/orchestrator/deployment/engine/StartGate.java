package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.RunScheduler;
import io.qawk.orchestrator.deployment.plan.StartRules;
import io.qawk.orchestrator.deployment.store.StartReads;
import io.qawk.orchestrator.deployment.store.SystemRunWriter;
import io.qawk.orchestrator.common.Lists;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's start step asks, just before systems would start, which of the scheduler's first candidates may not
 * start now and why: {@link StartRules} decides, from what {@link StartReads} reads (the plan preview asks the same).
 * A halted release is the scheduler's business (it still starts systems taken again); {@link #halted} tells it.
 */
@ApplicationScoped
public class StartGate {

    /** Under way, or about to go back by hand: the runs that drive their system ({@link StartReads#DRIVING}). */
    public static final String DRIVING = StartReads.DRIVING;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    StartReads reads;

    /**
     * The first candidates in sequence are asked of the start rules (held by another deployment? whole in the
     * channel? still there? a way that keeps the rules?) until {@code slots} free ones are found: those that may not
     * start, as read (not locked), each with its verdict. What becomes of them is {@link RunScheduler#holds}' to say.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Map<SystemRun, StartRules.Verdict> holdBack(SystemDeployment d, List<DeploymentPhase.RunSummary> candidates,
                                                       int slots) {
        Map<SystemRun, StartRules.Verdict> out = new LinkedHashMap<>();
        int free = 0;
        for (List<DeploymentPhase.RunSummary> chunk : Lists.chunks(candidates,
                Math.min(Math.max(2 * slots, 100), StartReads.NAMES_PER_QUERY))) {
            // read as plain rows: most start, and are only looked at
            List<SystemRun> checked = runWriter.read(chunk.stream().map(DeploymentPhase.RunSummary::id).toList());
            Map<String, StartRules.Verdict> verdicts = reads.verdicts(d, systemTypeOf(checked),
                    checked.stream().map(r -> r.system).toList());
            for (SystemRun read : checked) {
                StartRules.Verdict v = verdicts.get(read.system);
                if (v == null) {
                    free++;
                } else {
                    out.put(read, v);
                }
            }
            if (free >= slots) {
                break;
            }
        }
        return out;
    }

    private static long systemTypeOf(List<SystemRun> runs) {
        return runs.isEmpty() ? -1 : runs.get(0).systemTypeId;
    }

    /** Whether the channel release this deployment belongs to is halted. */
    public boolean halted(SystemDeployment d) {
        return reads.halted(d);
    }
}
