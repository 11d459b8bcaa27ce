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
import org.hibernate.annotations.Formula;

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

    /** Whether this run, as it reads now (its state and rollback cause), may be asked {@code command}. */
    public boolean allows(Command command) {
        if (command == Command.ROLL_BACK && divergence != null || command == Command.ADOPT && divergence == null) {
            return false;
        }
        return state.allows(command, rollbackCause);
    }

    /** The words of the refusal of {@code command}, which it does not allow ({@link RunState#refusal}). */
    public String refusal(Command command) {
        if (command == Command.ROLL_BACK && divergence != null) {
            // the way back would be planned from records hawkBit contradicts (a device recorded waiting that hawkBit
            // updated would be left on its new set)
            return "run " + id + "'s records are behind hawkBit, and a rollback would be planned from them: adopt what"
                    + " hawkBit shows first (POST …/runs/" + id + "/adopt), or abort the deployment and settle the"
                    + " system by hand";
        }
        if (command == Command.ADOPT && divergence == null && state.allows(command, rollbackCause)) {
            return "run " + id + "'s records agree with hawkBit: nothing to adopt";
        }
        return state.refusal(command, system, rollbackCause);
    }

    /**
     * Why its records are behind hawkBit, naming the actions and what hawkBit shows (table {@code run_divergence},
     * written by {@code store/DivergenceStore}); null while they agree. Read only here; the engine plans no such run.
     */
    @Formula("(select dv.words from run_divergence dv where dv.run_id = id)")
    public String divergence;

    /** Moves to {@code next} if its state may go there (else {@link IllegalStateException}, nothing changed). */
    public void moveTo(RunState next) {
        state = state.to(next);
    }

    /** Moves through each of {@code steps} in turn, each through the guard. */
    public void moveThrough(List<RunState> steps) {
        steps.forEach(this::moveTo);
    }

    /**
     * A deployment's runs in sequence. Read through {@code store/RunRepository} everywhere but {@code PlanReads},
     * which the planner's reshaping changes at the same time; it goes once that calls the repository.
     */
    public static List<SystemRun> ofDeployment(long deploymentId) {
        return list("deploymentId = ?1 order by seq", deploymentId);
    }

    /**
     * How many runs of a deployment are in a state and group; of those, how many have a rollback asked for or decided
     * ({@code rollbackAsked}: a rollback cause), went back after a failure ({@code failures}: cause FAILURE), and are
     * held by a compatibility rule ({@code held}: pending with a reason {@code held: …}).
     */
    public record Tally(RunState state, String group, long count, long rollbackAsked, long failures, long held) {

        public Tally(RunState state, String group, long count) {
            this(state, group, count, 0, 0, 0);
        }

        /** The runs of this row that read {@code shown} ({@link RunState#seen}). */
        public long seenAs(RunState shown) {
            long asked = state.seen(RollbackCause.MANUAL) != state ? rollbackAsked : 0;
            if (shown == state) {
                return count - asked;
            }
            return shown == RunState.ROLLING_BACK ? asked : 0;
        }
    }

}
