package io.qawk.orchestrator.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A deployment the engine has not observed since {@code since} (hawkBit unreachable, or the deployment paused): that
 * time does not count toward its devices' order timeouts. Removed by the pass that observes it again.
 */
@Entity
@Table(name = "deployment_unobserved")
public class DeploymentUnobserved extends PanacheEntityBase {

    @Id
    @Column(name = "deployment_id")
    public long deploymentId;

    @Column(nullable = false)
    public Instant since;

    /** Why, in operators' words: {@code hawkBit unreachable}, {@code paused}, or both in the order they came. */
    @Column(nullable = false)
    public String cause;
}
