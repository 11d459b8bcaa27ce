package io.qawk.orchestrator.deployment.model;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.qawk.orchestrator.window.Windows;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
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
import org.hibernate.annotations.Formula;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A manifest applied to systems, a few at a time. Its phase is derived from its flags and runs on every change. */
@Entity
@Table(name = "system_deployment")
public class SystemDeployment extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String name;

    @Column(name = "manifest_id", nullable = false)
    public long manifestId;

    /** The manifest's content frozen when this deployment started; null while it is a draft. */
    @Column(name = "manifest_revision_id")
    public Long manifestRevisionId;

    @Column(name = "fleet_id")
    public Long channelId;

    /** Only these centres, in this order; empty = every centre, by name. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "groups", nullable = false)
    public List<String> groups = new ArrayList<>();

    /** Only these systems; empty = all in scope. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "systems", nullable = false)
    public List<String> systems = new ArrayList<>();

    @Column(name = "max_parallel", nullable = false)
    public int maxParallel;

    @Column(name = "max_failed", nullable = false)
    public int maxFailed;

    @Column(name = "by_centre", nullable = false)
    public boolean byCentre;

    @Column(name = "order_timeout_seconds", nullable = false)
    public int orderTimeoutSeconds;

    /** The metric gate's query and condition ({@link #metricGate()}); both null without one. */
    @Column(name = "metric_gate_query")
    public String metricGateQuery;

    @Column(name = "metric_gate_condition")
    public String metricGateCondition;

    /** When systems may start, per centre; null: every centre always open. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "windows")
    public Windows windows;
    /** How long a device that finished may take to match its verification query. */
    @Column(name = "verify_timeout_seconds", nullable = false)
    public int verifyTimeoutSeconds = DEFAULT_VERIFY_TIMEOUT_SECONDS;

    /** How long a system must stay healthy after its last order before it counts as updated; 0: no soak. */
    @Column(name = "soak_seconds", nullable = false)
    public int soakSeconds;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public DeploymentPhase phase = DeploymentPhase.DRAFT;

    @Column(nullable = false)
    public boolean paused;

    /**
     * Started by a channel's release: it follows the channel, so it may be empty while no system is in scope (one made
     * by hand may not start so).
     */
    @Column(name = "follows_channel", nullable = false)
    public boolean followsChannel;

    @Column(nullable = false)
    public boolean aborted;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "created_by")
    public String createdBy;

    @Column(name = "started_at")
    public Instant startedAt;

    /** Who started, paused (while paused) and aborted it: a user name, null for nobody (issue 34). */
    @Column(name = "started_by")
    public String startedBy;

    @Column(name = "paused_by")
    public String pausedBy;

    @Column(name = "aborted_by")
    public String abortedBy;

    @Column(name = "ended_at")
    public Instant endedAt;

    /** How many of its runs' records hawkBit's actions contradict (table {@code run_divergence}); read only. */
    @Formula("(select count(*) from run_divergence dv where dv.deployment_id = id)")
    public int diverged;

    /**
     * Four eyes (issue 42): the rule, in words, that its system type or channel set when it was created or last edited
     * (null: no approval needed); who approved or rejected it, when, and the comment. An edit clears the approval.
     */
    @Column(name = "approval_rule")
    public String approvalRule;

    @Column(name = "approved_by")
    public String approvedBy;

    @Column(name = "approved_at")
    public Instant approvedAt;

    @Column(name = "rejected_by")
    public String rejectedBy;

    @Column(name = "rejected_at")
    public Instant rejectedAt;

    @Column(name = "approval_comment")
    public String approvalComment;

    @Version
    public long version;

    /**
     * What this deployment runs: the manifest as it was when the deployment started (its revision), for every system
     * it takes, however the manifest has been edited since; while a draft, the manifest as it is.
     */
    public Manifest manifest() {
        return manifestRevisionId == null ? Manifest.findById(manifestId)
                : ManifestRevision.<ManifestRevision>findById(manifestRevisionId).content();
    }

    /** The metric gate its soak asks ({@link io.qawk.orchestrator.analysis.MetricGates#verdict}), or null for none. */
    public MetricGate metricGate() {
        return metricGateQuery == null ? null : new MetricGate(metricGateQuery, metricGateCondition);
    }
    public static final int DEFAULT_VERIFY_TIMEOUT_SECONDS = 300;
    /** The longest verify timeout and soak: a day. */
    public static final int MAX_VERIFY_SECONDS = 86_400;

    public Duration orderTimeout() {
        return Duration.ofSeconds(orderTimeoutSeconds);
    }

    public Duration verifyTimeout() {
        return Duration.ofSeconds(verifyTimeoutSeconds);
    }

    public Duration soak() {
        return Duration.ofSeconds(soakSeconds);
    }

    /** Refuses (409, in its phase's words) a command its phase does not allow; else nothing. */
    public void check(Command command) {
        if (!phase.allows(command)) {
            throw new ConflictException(phase.refusal(command, id, approvalRule));
        }
    }

    /** Abort, with {@code pendingRuns} systems not yet started: refused (409) as {@link DeploymentPhase#allowsAbort}. */
    public void checkAbort(long pendingRuns) {
        if (!phase.allowsAbort(pendingRuns)) {
            throw new ConflictException(phase.refusal(Command.ABORT, id, approvalRule));
        }
    }

    /** This deployment, locked for the rest of the transaction. */
    public static SystemDeployment lock(long id) {
        SystemDeployment d = findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (d == null) {
            throw new NotFoundException("system deployment", id);
        }
        return d;
    }

    /**
     * Re-derives the phase from the flags and these runs; sets the end time ({@code now}) when it ends, and answers
     * whether it ended now (for {@code store/PhaseRefresh} to tell the evidence record).
     */
    public boolean refreshPhase(List<DeploymentPhase.RunSummary> runs, Instant now) {
        DeploymentPhase derived = DeploymentPhase.derive(startedAt != null, paused, aborted, maxFailed, runs);
        if (derived == DeploymentPhase.DRAFT) {
            derived = DeploymentPhase.beforeStart(approvalRule != null, approvedBy != null, rejectedBy != null);
        }
        if (derived != phase) {
            phase = derived;
            endedAt = derived.ended() ? now : null;
            return derived.ended();
        }
        return false;
    }
}
