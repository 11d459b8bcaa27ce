package io.qawk.orchestrator.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.List;

/**
 * One entry of a deployment's own timeline, which it has before any run (issue 42): it waits for approval, was
 * approved, rejected, or its approval was taken back by an edit; who ({@code actor}), the words, and the comment.
 */
@Entity
@Table(name = "deployment_event")
public class DeploymentEvent extends PanacheEntityBase {

    /** What happened to the deployment as a whole. */
    public enum Kind { APPROVAL_REQUESTED, APPROVED, REJECTED, APPROVAL_WITHDRAWN }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "deployment_id", nullable = false)
    public long deploymentId;

    @Column(nullable = false)
    public Instant at;

    @Enumerated(EnumType.STRING)
    @Column(name = "type", nullable = false)
    public Kind kind;

    public String actor;

    @Column(nullable = false)
    public String message;

    public String comment;

    public static void record(long deploymentId, Instant at, Kind kind, String actor, String message, String comment) {
        DeploymentEvent e = new DeploymentEvent();
        e.deploymentId = deploymentId;
        e.at = at;
        e.kind = kind;
        e.actor = actor;
        e.message = message;
        e.comment = comment;
        e.persist();
    }

    public static List<DeploymentEvent> of(long deploymentId) {
        return list("deploymentId = ?1 order by at, id", deploymentId);
    }
}
