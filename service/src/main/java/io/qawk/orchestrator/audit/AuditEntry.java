package io.qawk.orchestrator.audit;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** One command the API carried out: who ({@code actor}, null for nobody), when, what, on which object, its answer. */
@Entity
@Table(name = "audit_entry")
public class AuditEntry extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public Instant at;

    public String actor;

    @Column(nullable = false)
    public String action;

    @Column(nullable = false)
    public String target;

    @Column(nullable = false)
    public String method;

    @Column(nullable = false)
    public String path;

    @Column(nullable = false)
    public int status;

    /** Why, for what the service did on its own (the guard's holds); null for the API's commands. */
    public String detail;
}
