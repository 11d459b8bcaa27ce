package io.qawk.orchestrator.channel;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/** A standalone device a release's set goes to. */
@Entity
@Table(name = "release_device")
@IdClass(ReleaseDevice.Key.class)
public class ReleaseDevice extends PanacheEntityBase {

    /**
     * PENDING → ASSIGNED → ON_SET | FAILED; PENDING → ALREADY when it ran the set before, → FAILED when hawkBit no
     * longer knows it, → LEFT when it left the channel first. {@link #to} is the one guard.
     */
    public enum State {
        PENDING, ASSIGNED, ON_SET, ALREADY, FAILED, LEFT;

        /** The states this one may go to (staying is not a move). */
        public Set<State> next() {
            return switch (this) {
                case PENDING -> EnumSet.of(ASSIGNED, ALREADY, FAILED, LEFT);
                case ASSIGNED -> EnumSet.of(ON_SET, FAILED);
                case ON_SET, ALREADY, FAILED, LEFT -> EnumSet.noneOf(State.class);
            };
        }

        /** The guard: {@code target} when this state may go there (or stays), else an exception naming both. */
        public State to(State target) {
            if (target != this && !next().contains(target)) {
                throw new IllegalStateException("a release's device cannot go from " + this + " to " + target);
            }
            return target;
        }
    }

    @Id
    @Column(name = "release_id")
    public long releaseId;

    @Id
    @Column(name = "controller_id")
    public String controllerId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public State state = State.PENDING;

    @Column(name = "assigned_at")
    public Instant assignedAt;

    @Column(name = "action_id")
    public Long actionId;

    public String detail;

    /** Composite key. */
    public static class Key implements Serializable {
        public long releaseId;
        public String controllerId;

        public Key() {
        }

        public Key(long releaseId, String controllerId) {
            this.releaseId = releaseId;
            this.controllerId = controllerId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.releaseId == releaseId && Objects.equals(k.controllerId, controllerId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(releaseId, controllerId);
        }
    }
}
