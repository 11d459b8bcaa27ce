package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.store.DivergenceStore;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.deployment.store.TimelineWriter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The door of the deployment room for the rooms beside it (evidence, guard, health): what they read of runs (and of
 * those hawkBit contradicts) and of the engine, and the one thing they write, an entry on the timeline of the runs
 * that drive some systems. They come here rather than into {@code engine/} or {@code store/}, the room's own.
 */
@ApplicationScoped
public class RunRecords {

    @Inject
    RunRepository repository;

    @Inject
    TimelineWriter timeline;

    @Inject
    DeploymentEngine engine;

    @Inject
    DivergenceStore divergences;

    /** The ids of a deployment's runs in sequence: what a reader of all its runs pages through. */
    public List<Long> runIdsOf(long deploymentId) {
        return repository.runIdsOf(deploymentId);
    }

    /** These runs ({@link #runIdsOf a page of ids}), in sequence. */
    public List<SystemRun> runs(Collection<Long> runIds) {
        return repository.runs(runIds);
    }

    /** The devices of these runs, by run, each in order then controller id: one query. */
    public Map<Long, List<RunDevice>> devicesOf(Collection<Long> runIds) {
        return repository.devicesOf(runIds);
    }

    /** The timelines of these runs, by run, each oldest first: one query. */
    public Map<Long, List<RunEvent>> eventsOf(Collection<Long> runIds) {
        return repository.eventsOf(runIds);
    }

    /**
     * On the timeline of every run that drives one of these systems of a type now, the entry {@code event} makes of
     * its system's name, written by {@code actor} with the caller's transaction.
     */
    public void recordOnDrivers(long systemTypeId, Collection<String> systems, Instant at,
                                Function<String, TimelineEvent> event, String actor) {
        repository.drivers(systemTypeId, systems).forEach(r ->
                timeline.record(r.runId(), at, event.apply(r.system()), actor));
    }

    /** Per deployment with runs whose records hawkBit contradicts, how many (readiness lists them). */
    public Map<Long, Long> divergedByDeployment() {
        return divergences.divergedByDeployment();
    }

    /** Why the engine's loop is not passing, when it is not: ended, or a pass under way for too long. */
    public Optional<String> engineStuck() {
        return engine.stuck();
    }

    /** How long ago the engine's last pass ended, once one has. */
    public Optional<Duration> lastPassEndedAgo() {
        return engine.lastPassEndedAgo();
    }
}
