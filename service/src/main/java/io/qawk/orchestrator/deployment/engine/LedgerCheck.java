package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.plan.Ledger;
import io.qawk.orchestrator.deployment.store.DivergenceStore;
import io.qawk.orchestrator.hawkbit.HawkbitAction;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledger is hawkBit's: the pass's step "check the records", which compares what a deployment's runs recorded
 * sending with the actions hawkBit holds for their devices ({@link Ledger}, pure) and holds every run hawkBit
 * contradicts ({@link DivergenceStore}). It reads every device's actions, so it runs only when the records may be
 * behind: at the first pass of each deployment after this process started, and at the first pass after the records
 * went backwards under it (the passes' count is lower than this process wrote: a restore, a standby promoted).
 * Ordinary passes ask hawkBit nothing more.
 */
@ApplicationScoped
public class LedgerCheck {

    private static final Logger LOG = Logger.getLogger(LedgerCheck.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DivergenceStore store;

    /** Deployments checked since this process started, or since its records last went backwards. */
    private final Set<Long> checked = ConcurrentHashMap.newKeySet();

    /** The passes' count this process wrote last; -1 before its first pass. */
    private volatile long countWritten = -1;

    /**
     * At the start of a pass, which it counts: whether the records went backwards since this process's last pass
     * (the count found is lower than the one it wrote: commits were lost), in which case every deployment is checked
     * again. Only passes write the count, one process at a time (the engine's lock), so no other write can make up
     * for the loss before this looks.
     */
    public boolean recordsWentBackwards() {
        long found = store.countPass();
        long written = countWritten;
        countWritten = found + 1;
        if (found < written) {
            checked.clear();
            LOG.warnf("Qawk's records went backwards (this process counted %d passes, the database %d: a restore, or"
                    + " a standby promoted): every deployment's records are checked against hawkBit", written, found);
            return true;
        }
        return false;
    }

    /**
     * Checks a deployment's runs against hawkBit unless done since the start (or since the records went backwards);
     * true when a run was found diverged now (the caller reads the deployment again: such runs are no longer planned).
     */
    public boolean checkIfDue(long deploymentId) {
        if (checked.contains(deploymentId)) {
            return false;
        }
        boolean found = false;
        for (DivergenceStore.Recorded run : store.toCheck(deploymentId)) {
            if (run.devices().isEmpty()) {
                continue;
            }
            Ledger.Verdict verdict = Ledger.check(recorded(run.devices()), actions(run, false), hawkbit.user());
            if (!verdict.agrees() && store.record(deploymentId, run.runId(), verdict)) {
                found = true;
                LOG.warnf("Run %d of deployment %d: %s", run.runId(), deploymentId, verdict.words());
            }
        }
        checked.add(deploymentId); // only once every run was checked: a failure leaves it to the next pass
        return found;
    }

    /** A run's devices as the ledger reads them. */
    public static List<Ledger.Recorded> recorded(List<RunDevice> devices) {
        return devices.stream().map(d -> new Ledger.Recorded(d.controllerId, d.state, d.actionId, d.fromSetId,
                d.fromSet, d.toSetId, d.toSet)).toList();
    }

    /**
     * Each device's actions since the run started, as the ledger reads them (a device hawkBit no longer knows has
     * none: the observer's step says it left). hawkBit's listing names no set, so each action the ledger weighs is
     * read on its own: those after the device's record ({@code all}: after the run's first recorded action, as
     * adopting weighs them), rarely any but after a restore or a failover.
     */
    public Map<String, List<Ledger.Action>> actions(DivergenceStore.Recorded run, boolean all) {
        Map<String, List<Ledger.Action>> out = new HashMap<>();
        Instant since = run.startedAt();
        Long floor = Ledger.floor(recorded(run.devices()));
        for (RunDevice d : run.devices()) {
            long after = !all && d.actionId != null ? d.actionId : floor == null ? Long.MIN_VALUE : floor - 1;
            List<Ledger.Action> actions = new ArrayList<>();
            try {
                for (HawkbitAction a : hawkbit.actions(d.controllerId, null)) {
                    if (since != null && a.createdAt() != null && a.createdAt().isBefore(since)) {
                        continue;
                    }
                    HawkbitAction full = a.id() > after && a.distributionSetId() == null
                            ? hawkbit.action(d.controllerId, a.id()) : a;
                    actions.add(new Ledger.Action(full.id(), full.createdBy(), full.distributionSetId(), full.status(),
                            full.open()));
                }
            } catch (TargetNotFoundException gone) {
                actions.clear();
            }
            out.put(d.controllerId, actions);
        }
        return out;
    }
}
