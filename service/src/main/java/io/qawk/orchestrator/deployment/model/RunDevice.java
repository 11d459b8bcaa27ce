package io.qawk.orchestrator.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreRemove;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import java.io.Serializable;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** A device of a run: its photograph (from-set) and destination (to-set), and how far it got. */
@Entity
@Table(name = "run_device")
@IdClass(RunDevice.Key.class)
public class RunDevice extends PanacheEntityBase {

    @Id
    @Column(name = "run_id")
    public long runId;

    /**
     * Set by the photograph only, never stored: the action of Qawk's lost work whose set the device ran when it was
     * photographed (its "before" was rebuilt from hawkBit's action history); null for an ordinary photograph.
     */
    @Transient
    public Long rebuiltFromAction;

    @Id
    @Column(name = "controller_id")
    public String controllerId;

    @Column(name = "component_type", nullable = false)
    public String componentType;

    @Column(name = "update_order", nullable = false)
    public int order;

    @Column(name = "from_set_id")
    public Long fromSetId;

    @Column(name = "from_set")
    public String fromSet;

    @Column(name = "to_set_id", nullable = false)
    public long toSetId;

    @Column(name = "to_set", nullable = false)
    public String toSet;

    /** Changed only by {@link #moveTo}, through {@link DeviceState#to}. */
    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public DeviceState state = DeviceState.WAITING;

    @Column(nullable = false)
    public boolean failed;

    @Column(name = "intent_at")
    public Instant intentAt;

    @Column(name = "assigned_at")
    public Instant assignedAt;

    @Column(name = "action_id")
    public Long actionId;

    @Column(name = "finished_at")
    public Instant finishedAt;

    public String detail;

    /** Seconds of the current assignment during which hawkBit could not be observed (or it was paused): not counted. */
    @Column(name = "unobserved_seconds", nullable = false)
    public long unobservedSeconds;

    /** How it failed, for the run's reason, when that is more than "it reported a failure" (timed out, refused). */
    public String failure;

    /** Its component's verification query in the deployment's manifest revision, when photographed; null: none. */
    @Column(name = "verify_query")
    public String verifyQuery;

    /** Its component's health query in the system type, when photographed; null: none. */
    @Column(name = "health_query")
    public String healthQuery;

    /** Since when it waits to match {@link #verifyQuery} (it finished installing then); null unless VERIFYING. */
    @Column(name = "verifying_since")
    public Instant verifyingSince;

    /**
     * When hawkBit says it finished its forward update (its target's {@code installedAt}; when hawkBit named no time,
     * when Qawk saw it finish); null until then. The gap to the next order's assignment starts at its order's latest.
     */
    @Column(name = "reported_at")
    public Instant reportedAt;

    /**
     * The fields a device keeps as a decision brings it to {@code reached} ({@code now}: the time decided with;
     * {@code reported}: when hawkBit says it finished, else {@code now}): an intent to assign starts afresh (going
     * forward it forgets its old action; going back it keeps it: recovery looks for a newer one); verifying counts its
     * timeout from now; finishing its forward update keeps the first time it was reported; an end is its finish.
     */
    public void reached(DeviceState reached, Instant now, Instant reported) {
        if (reached == DeviceState.VERIFYING) {
            verifyingSince = now;
            unobservedSeconds = 0;
        }
        if (reached == DeviceState.ASSIGNING || reached == DeviceState.ROLLBACK_ASSIGNING) {
            intentAt = now;
            assignedAt = null;
            unobservedSeconds = 0;
            reportedAt = null;
            if (reached == DeviceState.ASSIGNING) {
                actionId = null;
            }
        }
        if ((reached == DeviceState.SUCCEEDED || reached == DeviceState.VERIFYING) && reportedAt == null) {
            reportedAt = reported; // finished its forward update (back: ROLLED_BACK)
        }
        if (FINISHED.contains(reached)) {
            finishedAt = now;
        }
    }

    /** The states in which a device has finished (for now: VERIFYING until it matches its query). */
    static final Set<DeviceState> FINISHED = EnumSet.of(DeviceState.SUCCEEDED, DeviceState.FAILED,
            DeviceState.ROLLED_BACK, DeviceState.ROLLBACK_FAILED, DeviceState.LEFT_SYSTEM, DeviceState.TAKEN_OVER,
            DeviceState.VERIFYING);

    /** Moves to {@code next} if its state may go there (else {@link IllegalStateException}, nothing changed). */
    public void moveTo(DeviceState next) {
        state = state.to(next);
    }

    /** A run's devices; read through {@code store/RunRepository}. */
    public static List<RunDevice> ofRun(long runId) {
        return list("runId = ?1 order by order, controllerId", runId);
    }


    /**
     * Read through Hibernate, written only by {@code store/RunDeviceWriter}: one write path, the one the engine's
     * scale needs (a pass writes thousands). A write through Hibernate fails here, at the flush, rather than racing it.
     */
    @PrePersist
    @PreUpdate
    @PreRemove
    void writtenByItsWriterOnly() {
        throw new IllegalStateException("run_device is written by RunDeviceWriter only, not through Hibernate");
    }

    /** The set this device is being sent now: its destination, or its photographed set on the way back. */
    public long setInFlight() {
        return state.rollingBack() ? fromSetId : toSetId;
    }

    /** The name of the set this device is being sent now ({@link #setInFlight}). */
    public String setInFlightName() {
        return state.rollingBack() ? fromSet : toSet;
    }

    /** Composite key: run and controller id. */
    public static class Key implements Serializable {
        public long runId;
        public String controllerId;

        public Key() {
        }

        public Key(long runId, String controllerId) {
            this.runId = runId;
            this.controllerId = controllerId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.runId == runId && Objects.equals(k.controllerId, controllerId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(runId, controllerId);
        }
    }
}
