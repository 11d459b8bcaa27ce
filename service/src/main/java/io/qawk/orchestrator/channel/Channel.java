package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.window.Windows;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A channel: the targets its query matches, the channel it promotes to, and how its orchestrator works. */
@Entity
@Table(name = "fleet")
public class Channel extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public String name;

    /** hawkBit target query of the channel's members, e.g. {@code tag==beta} or {@code attribute.channel==beta}. */
    @Column(nullable = false)
    public String match;

    @Column(name = "promotes_to_id")
    public Long promotesToId;

    @Column(name = "max_parallel", nullable = false)
    public int maxParallel = 1;

    @Column(name = "max_failed", nullable = false)
    public int maxFailed;

    @Column(name = "by_centre", nullable = false)
    public boolean byCentre;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public List<String> centres = new ArrayList<>();

    /** The metric gate of the deployments its releases start ({@link #metricGate()}); both null without one. */
    @Column(name = "metric_gate_query")
    public String metricGateQuery;

    @Column(name = "metric_gate_condition")
    public String metricGateCondition;

    /** When its releases' deployments may start systems, per centre; null: always. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "windows")
    public Windows windows;
    /** For the deployments of its releases: how long a device that finished may take to match its verification query. */
    @Column(name = "orchestrator_verify_timeout_seconds", nullable = false)
    public int orchestratorVerifyTimeoutSeconds = 300;

    /** For the deployments of its releases: how long each system soaks after its last order (0: none). */
    @Column(name = "orchestrator_soak_seconds", nullable = false)
    public int orchestratorSoakSeconds;

    /** Standalone devices that may fail before the release halts. */
    @Column(name = "device_max_failed", nullable = false)
    public int deviceMaxFailed;

    @Column(name = "device_batch_size", nullable = false)
    public int deviceBatchSize = 500;

    /** How long a complete release must stay in this channel before it may be promoted. */
    @Column(name = "soak_seconds", nullable = false)
    public int soakSeconds;

    /** {@code api}, or {@code configuration} when declared in the service's configuration (Helm values). */
    @Column(name = "managed_by", nullable = false)
    public String managedBy = "api";

    /** Four eyes: its releases' deployments wait for an approver other than their creator (issue 42). */
    @Column(name = "approval_required", nullable = false)
    public boolean approvalRequired;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Version
    public long version;

    public MetricGate metricGate() {
        return metricGateQuery == null ? null : new MetricGate(metricGateQuery, metricGateCondition);
    }

    public static Optional<Channel> findByName(String name) {
        return find("name", name).firstResultOptional();
    }
}
