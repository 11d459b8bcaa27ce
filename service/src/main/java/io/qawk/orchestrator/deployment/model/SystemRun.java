package io.qawk.orchestrator.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreRemove;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.time.Instant;
import java.util.List;

/** One system's run within a deployment. */
@Entity
@Table(name = "system_run")
public class SystemRun extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /**
     * Read through Hibernate, written only by {@code store/SystemRunWriter}: one write path, the one the engine's
     * scale needs (a pass writes thousands). A write through Hibernate fails here, at the flush, rather than racing it.
     */
    @PrePersist
    @PreUpdate
    @PreRemove
    void writtenByItsWriterOnly() {
        throw new IllegalStateException("system_run is written by SystemRunWriter only, not through Hibernate");
    }

    @Column(name = "deployment_id", nullable = false)
    public long deploymentId;

    @Column(name = "system_name", nullable = false)
    public String system;

    /** The system type of the deployment's manifest: with the system name, what a run claims while under way. */
    @Column(name = "system_type_id", nullable = false)
    public long systemTypeId;

    @Column(name = "group_name")
    public String group;

    /** Position in the deployment's sequence (centre order, then system name). */
    @Column(nullable = false)
    public int seq;

    /** Changed only by {@link #moveTo}, through {@link RunState#to}. */
    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public RunState state = RunState.PENDING;

    @Column(name = "current_order")
    public Integer currentOrder;

    @Column(name = "failed_order")
    public Integer failedOrder;

    @Enumerated(EnumType.STRING)
    @Column(name = "rollback_cause")
    public RollbackCause rollbackCause;

    @Column(name = "rollback_reason")
    public String rollbackReason;

    public String reason;

    @Column(nullable = false)
    public int attempt = 1;

    @Column(name = "started_at")
    public Instant startedAt;

    @Column(name = "ended_at")
    public Instant endedAt;

    /** When its soak (state VERIFYING) began: its last order was done. */
    @Column(name = "soak_started_at")
    public Instant soakStartedAt;

    /** When its soak ends if it stays healthy; moved on by time hawkBit could not be asked (or it was paused). */
    @Column(name = "soak_ends_at")
    public Instant soakEndsAt;

    @Version
    public long version;

    /** Moves to {@code next} if its state may go there (else {@link IllegalStateException}, nothing changed). */
    public void moveTo(RunState next) {
        state = state.to(next);
    }

    /** Moves through each of {@code steps} in turn, each through the guard. */
    public void moveThrough(List<RunState> steps) {
        steps.forEach(this::moveTo);
    }

    public static List<SystemRun> ofDeployment(long deploymentId) {
        return list("deploymentId = ?1 order by seq", deploymentId);
    }

    /** How many runs of a deployment are in a state and group. */
    public record Tally(RunState state, String group, long count) {
    }

    /**
     * A deployment's runs counted by state and group, in the order of each one's first run: what its view shows,
     * without loading tens of thousands of runs for a screen that asks every few seconds.
     */
    public static List<Tally> tally(long deploymentId) {
        return getEntityManager().createQuery("select r.state, r.group, count(r) from SystemRun r"
                        + " where r.deploymentId = :d group by r.state, r.group order by min(r.seq)", Object[].class)
                .setParameter("d", deploymentId)
                .getResultStream()
                .map(row -> new Tally((RunState) row[0], (String) row[1], (Long) row[2]))
                .toList();
    }

    /**
     * What the phase and the scheduler need of every run of a deployment, read as plain rows: at tens of thousands of
     * runs, loading them as entities (and dirty-checking them at every commit) cost most of an engine pass.
     */
    public static List<DeploymentPhase.RunSummary> summaries(long deploymentId) {
        return getEntityManager().createQuery("select r.id, r.state, r.group, r.seq, r.rollbackCause, r.attempt from SystemRun r"
                        + " where r.deploymentId = :d order by r.seq", Object[].class)
                .setParameter("d", deploymentId)
                .getResultStream()
                .map(row -> new DeploymentPhase.RunSummary((Long) row[0], (RunState) row[1], (String) row[2],
                        (Integer) row[3], (RollbackCause) row[4], (Integer) row[5] > 1))
                .toList();
    }

}
