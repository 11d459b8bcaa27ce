package io.qawk.orchestrator.channel;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.time.Instant;
import java.util.Optional;

/** A channel's release: a set for its standalone devices and/or a manifest for its systems (through a deployment). */
@Entity
@Table(name = "fleet_release")
public class ChannelRelease extends PanacheEntityBase {

    /** CURRENT until a newer release of the channel supersedes it; never back. {@link #to} is the one guard. */
    public enum State {
        CURRENT, SUPERSEDED;

        /** The guard: {@code target} when this state may go there (or stays), else an exception naming both. */
        public State to(State target) {
            if (target != this && !(this == CURRENT && target == SUPERSEDED)) {
                throw new IllegalStateException("a release cannot go from " + this + " to " + target);
            }
            return target;
        }
    }

    /**
     * How the release stands, the one word the API and the screen show ({@link #progress()}): HALTED (only a person
     * resumes it), COMPLETE (both halves done, as the release engine last found them), else RUNNING.
     */
    public enum ReleaseProgress {
        RUNNING, COMPLETE, HALTED;

        /**
         * Derived, never set: from whether the release is halted (a person resumes it) and when the release engine
         * found both halves done ({@code completedAt}, null while not): a halt outweighs a completion.
         */
        public static ReleaseProgress of(boolean halted, Instant completedAt) {
            return halted ? HALTED : completedAt != null ? COMPLETE : RUNNING;
        }

        /** A person may resume it: only a halted release. */
        public boolean resumable() {
            return this == HALTED;
        }
    }

    /** Derived from {@code halted} and {@code completedAt}, in this one place ({@link ReleaseProgress#of}). */
    public ReleaseProgress progress() {
        return ReleaseProgress.of(halted, completedAt);
    }

    /** What halted it: too many standalone devices, or more systems than the orchestrator allows. */
    public enum HaltCause { DEVICES, SYSTEMS }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "fleet_id", nullable = false)
    public long channelId;

    @Column(name = "distribution_set_id")
    public Long distributionSetId;

    @Column(name = "distribution_set")
    public String distributionSet;

    @Column(name = "manifest_id")
    public Long manifestId;

    @Column(name = "deployment_id")
    public Long deploymentId;

    @Column(name = "promoted_from_id")
    public Long promotedFromId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public State state = State.CURRENT;

    @Column(nullable = false)
    public boolean halted;

    @Enumerated(EnumType.STRING)
    @Column(name = "halt_cause")
    public HaltCause haltCause;

    @Column(name = "halt_reason")
    public String haltReason;

    /** Standalone failures a person accepted by resuming: the device budget counts failures beyond these. */
    @Column(name = "accepted_failures", nullable = false)
    public int acceptedFailures;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "created_by")
    public String createdBy;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Version
    public long version;

    public static Optional<ChannelRelease> current(long channelId) {
        return currentQuery(channelId).firstResultOptional();
    }

    /**
     * The current release locked for the caller's transaction, to be superseded: the release pass storing its
     * evaluation at the same moment is waited for, not overwritten (that would be a 409 to the one releasing).
     */
    public static Optional<ChannelRelease> lockCurrent(long channelId) {
        return currentQuery(channelId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    private static PanacheQuery<ChannelRelease> currentQuery(long channelId) {
        return find("channelId = ?1 and state = ?2 order by id desc", channelId, State.CURRENT);
    }

    /** The release locked for the caller's transaction, read afresh: the release pass's reads before it writes. */
    public static ChannelRelease lock(long id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }
}
