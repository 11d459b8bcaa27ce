package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.Ledger;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs whose records hawkBit's actions contradict ({@code run_divergence}): found by the engine's ledger check, held
 * (the engine plans no such run: {@link SystemRunWriter}'s runs to plan leave them out) until a person adopts what
 * hawkBit shows, which stores the state hawkBit's actions prove.
 */
@ApplicationScoped
public class DivergenceStore {

    /** Longest words stored ({@code run_divergence.words}, {@code run_event.message}), with room for the timeline's tail. */
    static final int WORDS = 3800;

    /** Longest rollback reason stored ({@code system_run.rollback_reason}). */
    static final int REASON = 1000;

    @Inject
    EntityManager em;

    @Inject
    TimelineWriter timeline;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    RunDeviceWriter deviceWriter;

    @Inject
    Clock clock;

    /**
     * Counts a pass (table {@code engine_pass_mark}, committed at once) and answers the count it found: lower than the
     * count this process wrote last means the records went backwards under it (a restore, a standby promoted).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public long countPass() {
        Number n = (Number) em.createNativeQuery("update engine_pass_mark set passes = passes + 1 where id = 1"
                + " returning passes - 1").getSingleResult();
        return n.longValue();
    }

    /** A run as the ledger check reads it: when it started, and its devices as recorded. */
    public record Recorded(long runId, RunState state, Instant startedAt, List<RunDevice> devices) {
    }

    /** The runs of a deployment a pass may plan and whose records agree so far (none diverged), with their devices. */
    @Transactional
    public List<Recorded> toCheck(long deploymentId) {
        return withDevices(runWriter.toPlan(deploymentId));
    }

    /** The diverged runs of a deployment ({@code runId} null: all of them), with their devices. */
    @Transactional
    public List<Recorded> diverged(long deploymentId, Long runId) {
        @SuppressWarnings("unchecked")
        List<Number> ids = em.createNativeQuery("select run_id from run_divergence where deployment_id = :d"
                        + " order by run_id")
                .setParameter("d", deploymentId).getResultList();
        return withDevices(runWriter.read(ids.stream().map(Number::longValue)
                .filter(id -> runId == null || id == runId.longValue()).toList()));
    }

    private List<Recorded> withDevices(List<SystemRun> runs) {
        Map<Long, List<RunDevice>> devices = deviceWriter.read(runs.stream().map(r -> r.id).toList());
        return runs.stream().map(r -> new Recorded(r.id, r.state, r.startedAt, devices.getOrDefault(r.id, List.of()))).toList();
    }

    /** Stores that a run's records are behind hawkBit, with its timeline entry; false when it already was. */
    @Transactional
    public boolean record(long deploymentId, long runId, Ledger.Verdict verdict) {
        Instant now = clock.instant();
        int inserted = em.createNativeQuery("insert into run_divergence (run_id, deployment_id, found_at, words)"
                        + " values (:r, :d, :at, :w) on conflict (run_id) do nothing")
                .setParameter("r", runId).setParameter("d", deploymentId).setParameter("at", now).setParameter("w", cut(verdict.words()))
                .executeUpdate();
        if (inserted == 0) {
            return false;
        }
        timeline.record(runId, now, new TimelineEvent.Diverged(verdict.actionIds(), cut(verdict.words())), null);
        return true;
    }

    /**
     * Stores each adoption ({@code adoptions} by run): the run and its devices take the states hawkBit's actions
     * prove, each move through the guard (part-way, the run keeps its state and the devices hawkBit's actions, which
     * the engine then observes), its divergence cleared, with its timeline entry. Runs no longer diverged
     * (another adopted them meanwhile) are left as they are; returns how many were adopted.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public int adopt(Map<Long, Ledger.Adoption> adoptions, String actor) {
        Instant now = clock.instant();
        List<Long> ids = adoptions.keySet().stream().sorted().toList();
        List<SystemRun> runs = runWriter.lock(ids);
        Set<Long> still = Set.copyOf(stillDiverged(ids));
        Map<Long, List<RunDevice>> devices = deviceWriter.read(ids);
        int adopted = 0;
        for (SystemRun run : runs) {
            Ledger.Adoption a = adoptions.get(run.id);
            if (!still.contains(run.id)) {
                continue;
            }
            for (RunDevice d : devices.getOrDefault(run.id, List.of())) {
                DeviceState to = a.devices().get(d.controllerId);
                Long action = a.actionIds().get(d.controllerId);
                if (to == null || to == d.state && (action == null || action.equals(d.actionId))) {
                    continue; // as hawkBit shows it already (a state recorded with no action names it now)
                }
                Ledger.path(d.state, to).forEach(d::moveTo);
                if (action != null) {
                    d.actionId = action;
                }
                if (to == DeviceState.ASSIGNED) { // sent, as the lost commit would have said: the engine observes it
                    d.assignedAt = now;
                    d.finishedAt = null;
                } else {
                    d.finishedAt = now;
                }
                deviceWriter.changed(d);
            }
            if (a.underWay()) { // part-way: the engine goes on from the adopted records (and back, if hawkBit was)
                run.reason = cut("adopted what hawkBit shows: " + a.words());
                if (a.cause() != null && run.rollbackCause == null) {
                    run.rollbackCause = a.cause();
                    run.rollbackReason = cut("hawkBit shows the system going back: " + a.words(), REASON);
                }
            } else {
                run.moveThrough(Ledger.path(run.state, a.state()));
                run.endedAt = now;
                run.reason = cut("adopted what hawkBit shows: " + a.words());
            }
            if (!a.underWay() && a.state() == RunState.ROLLED_BACK) {
                run.rollbackCause = a.failed() ? RollbackCause.FAILURE : RollbackCause.MANUAL;
                run.rollbackReason = cut(run.reason, REASON);
            }
            em.createNativeQuery("delete from run_divergence where run_id = :r").setParameter("r", run.id)
                    .executeUpdate();
            timeline.record(run.id, now, new TimelineEvent.Adopted(a.state(), cut(a.words())), actor);
            adopted++;
        }
        runWriter.writeNow();
        return adopted;
    }

    private List<Long> stillDiverged(List<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        @SuppressWarnings("unchecked")
        List<Number> found = em.createNativeQuery("select run_id from run_divergence where run_id in (:ids)")
                .setParameter("ids", ids).getResultList();
        List<Long> out = new ArrayList<>();
        found.forEach(n -> out.add(n.longValue()));
        return out;
    }

    /** Diverged runs of every deployment that has not ended, by deployment, in ids: what readiness lists. */
    @Transactional
    public Map<Long, Long> divergedByDeployment() {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select dv.deployment_id, count(*) from run_divergence dv"
                + " join system_deployment d on d.id = dv.deployment_id"
                + " where d.phase in " + SqlEnums.list(DeploymentPhase.RUNNING, DeploymentPhase.PAUSED,
                        DeploymentPhase.ABORTING) + " group by dv.deployment_id order by 1")
                .getResultList();
        Map<Long, Long> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(((Number) r[0]).longValue(), ((Number) r[1]).longValue()));
        return out;
    }

    private static String cut(String words) {
        return cut(words, WORDS);
    }

    private static String cut(String words, int max) {
        return words.length() <= max ? words : words.substring(0, max - 1) + "…";
    }
}
