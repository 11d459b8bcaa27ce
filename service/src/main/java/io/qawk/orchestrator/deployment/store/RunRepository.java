package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.SystemPath;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Runs and their devices as the service and the API read and write them, outside the engine's pass ({@link RunStore}):
 * the commands' runs locked and written through the writers, the deployment's runs and their timelines read. Nothing
 * outside {@code store/} writes SQL on {@code system_run}, {@code run_device} or {@code run_event}
 * ({@code RunTablesTest}); this decides nothing either.
 */
@ApplicationScoped
public class RunRepository {

    @Inject
    SystemRunWriter runWriter;

    @Inject
    RunDeviceWriter deviceWriter;

    /** A system to take as a pending run: its name, group and place in the deployment's sequence. */
    public record Pending(String system, String group, int seq) {
    }

    /**
     * Stores these systems as pending runs of a deployment, in the caller's transaction, each with the entry
     * {@code why} on its timeline; returns how many were stored.
     */
    public int createPending(long deploymentId, long systemTypeId, List<Pending> systems, Instant at,
                             TimelineEvent.Created why, String actor) {
        return runWriter.insertPending(deploymentId, systemTypeId, systems.stream()
                .map(p -> new SystemRunWriter.Pending(p.system(), p.group(), p.seq())).toList(), at, why, actor);
    }

    /** These runs locked for this transaction, in id order; what changes of them is written by {@link #write()}. */
    public List<SystemRun> lock(List<Long> runIds) {
        return runWriter.lock(runIds);
    }

    /** The run locked for this transaction, if there is one with this id. */
    public Optional<SystemRun> lock(long runId) {
        return runWriter.lock(List.of(runId)).stream().findFirst();
    }

    /** Writes now what changed of the runs locked in this transaction (rather than at its commit). */
    public void write() {
        runWriter.writeNow();
    }

    /** Forgets a run's devices (its photograph and orders), as when it is taken again. */
    public void forgetDevices(long runId) {
        deviceWriter.deleteOf(runId);
    }

    /** A deployment's runs in sequence. */
    public List<SystemRun> ofDeployment(long deploymentId) {
        return SystemRun.list("deploymentId = ?1 order by seq", deploymentId);
    }

    /** A deployment's runs under way ({@link RunState#UNDER_WAY}). */
    public List<SystemRun> underWay(long deploymentId) {
        return SystemRun.list("deploymentId = ?1 and state in ?2", deploymentId, RunState.UNDER_WAY);
    }

    /** The systems of a deployment's pending runs, in sequence. */
    public List<String> pendingSystems(long deploymentId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = SystemRun.getEntityManager().createNativeQuery("select system_name, seq from system_run"
                        + " where deployment_id = :d and state = " + SqlEnums.literal(RunState.PENDING) + " order by seq")
                .setParameter("d", deploymentId).getResultList();
        return rows.stream().map(row -> (String) row[0]).toList();
    }

    /** A run by id, or null. */
    public SystemRun find(long runId) {
        return SystemRun.findById(runId);
    }

    /**
     * What the phase and the scheduler need of every run of a deployment, read as plain rows: at tens of thousands of
     * runs, loading them as entities (and dirty-checking them at every commit) cost most of an engine pass.
     */
    public List<DeploymentPhase.RunSummary> summaries(long deploymentId) {
        return SystemRun.getEntityManager().createQuery("select r.id, r.state, r.group, r.seq, r.rollbackCause, r.attempt"
                        + " from SystemRun r where r.deploymentId = :d order by r.seq", Object[].class)
                .setParameter("d", deploymentId)
                .getResultStream()
                .map(row -> new DeploymentPhase.RunSummary((Long) row[0], (RunState) row[1], (String) row[2],
                        (Integer) row[3], (RollbackCause) row[4], (Integer) row[5] > 1))
                .toList();
    }

    /**
     * A deployment's runs counted by state and group, in the order of each one's first run: what its view shows,
     * without loading tens of thousands of runs for a screen that asks every few seconds.
     */
    public List<SystemRun.Tally> tally(long deploymentId) {
        return SystemRun.getEntityManager().createQuery("select r.state, r.group, count(r),"
                        + " sum(case when r.rollbackCause is not null then 1 else 0 end),"
                        + " sum(case when r.rollbackCause = :failure then 1 else 0 end),"
                        + " sum(case when r.state = :pending and r.reason like :held then 1 else 0 end)"
                        + " from SystemRun r where r.deploymentId = :d group by r.state, r.group order by min(r.seq)",
                        Object[].class)
                .setParameter("d", deploymentId)
                .setParameter("failure", RollbackCause.FAILURE)
                .setParameter("pending", RunState.PENDING)
                .setParameter("held", SystemPath.HELD + "%")
                .getResultStream()
                .map(row -> new SystemRun.Tally((RunState) row[0], (String) row[1], (Long) row[2],
                        ((Number) row[3]).longValue(), ((Number) row[4]).longValue(), ((Number) row[5]).longValue()))
                .toList();
    }

    /** A run's devices, in order then controller id. */
    public List<RunDevice> devices(long runId) {
        return RunDevice.list("runId = ?1 order by order, controllerId", runId);
    }

    /** The devices of every run of a deployment, by run, each in order then controller id: one query. */
    public Map<Long, List<RunDevice>> devicesOfDeployment(long deploymentId) {
        return RunDevice.<RunDevice>list("runId in (select r.id from SystemRun r where r.deploymentId = ?1)"
                        + " order by runId, order, controllerId", deploymentId).stream()
                .collect(Collectors.groupingBy(dev -> dev.runId));
    }

    /** The ids of a deployment's runs in sequence: what a reader of all its runs pages through. */
    public List<Long> runIdsOf(long deploymentId) {
        return SystemRun.getEntityManager().createQuery("select r.id from SystemRun r where r.deploymentId = :d"
                + " order by r.seq, r.id", Long.class).setParameter("d", deploymentId).getResultList();
    }

    /** These runs ({@link #runIdsOf a page of ids}), in sequence. */
    public List<SystemRun> runs(Collection<Long> runIds) {
        return SystemRun.list("id in ?1 order by seq, id", runIds);
    }

    /** The devices of these runs, by run, each in order then controller id: one query. */
    public Map<Long, List<RunDevice>> devicesOf(Collection<Long> runIds) {
        return RunDevice.<RunDevice>list("runId in ?1 order by runId, order, controllerId", runIds).stream()
                .collect(Collectors.groupingBy(dev -> dev.runId));
    }

    /** The timelines of these runs, by run, each oldest first: one query. */
    public Map<Long, List<RunEvent>> eventsOf(Collection<Long> runIds) {
        return RunEvent.<RunEvent>list("runId in ?1 order by runId, at, id", runIds).stream()
                .collect(Collectors.groupingBy(e -> e.runId));
    }

    /** A run's timeline, oldest first. */
    public List<RunEvent> events(long runId) {
        return RunEvent.list("runId = ?1 order by at, id", runId);
    }

    /** Another deployment's run of a system: the deployment's id and name, and the run's state. */
    public record OtherRun(long deploymentId, String deploymentName, RunState state) {
    }

    /**
     * The latest run of another deployment of this run's system (or of one sharing a device with it) that drives it
     * now or started after this run ended.
     */
    public Optional<OtherRun> otherDriver(SystemRun run) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = SystemRun.getEntityManager().createNativeQuery("select d.id, d.name, r.state from system_run r"
                        + " join system_deployment d on d.id = r.deployment_id where r.deployment_id <> :dep and ("
                        + " (r.system_type_id = :type and r.system_name = :name) or r.id in (select rd.run_id from run_device rd"
                        + " where rd.controller_id in (select controller_id from run_device where run_id = :run)))"
                        + " and (" + RunState.drivesSql("r") + " or r.started_at > :ended) order by r.id desc limit 1")
                .setParameter("dep", run.deploymentId).setParameter("type", run.systemTypeId).setParameter("name", run.system)
                .setParameter("run", run.id).setParameter("ended", run.endedAt == null ? Instant.EPOCH : run.endedAt)
                .getResultList();
        return rows.stream().findFirst().map(r -> new OtherRun(((Number) r[0]).longValue(), (String) r[1],
                RunState.valueOf((String) r[2])));
    }

    /** A run that drives its system now ({@link RunState#drives}): its id, and its system's type and name. */
    public record Driver(long runId, long systemTypeId, String system) {
    }

    /**
     * The runs that drive these systems of a type now (at most one each: the one-driver rule), read in one query per
     * {@value StartReads#NAMES_PER_QUERY} names.
     */
    public List<Driver> drivers(long systemTypeId, Collection<String> systems) {
        List<Driver> out = new ArrayList<>();
        for (List<String> chunk : Lists.chunks(List.copyOf(new LinkedHashSet<>(systems)),
                StartReads.NAMES_PER_QUERY)) {
            @SuppressWarnings("unchecked")
            List<Object[]> rows = SystemRun.getEntityManager().createNativeQuery("select r.id, r.system_name"
                            + " from system_run r where r.system_type_id = :type and r.system_name in (:names) and "
                            + StartReads.DRIVING + " order by r.id")
                    .setParameter("type", systemTypeId).setParameter("names", chunk).getResultList();
            rows.forEach(r -> out.add(new Driver(((Number) r[0]).longValue(), systemTypeId, (String) r[1])));
        }
        return out;
    }
}
