package io.qawk.orchestrator.fleet;

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
import java.util.Objects;

/** A standalone device a release's set goes to. */
@Entity
@Table(name = "release_device")
@IdClass(ReleaseDevice.Key.class)
public class ReleaseDevice extends PanacheEntityBase {

    /** PENDING → ASSIGNED → ON_SET | FAILED; ALREADY when it ran the set before; LEFT when it left the channel first. */
    public enum State { PENDING, ASSIGNED, ON_SET, ALREADY, FAILED, LEFT }

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
