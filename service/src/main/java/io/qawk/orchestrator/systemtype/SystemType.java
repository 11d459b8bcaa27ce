package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.RuleSpec;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A topology: the components a system consists of, and the key that says which system a device is in. */
@Entity
@Table(name = "system_type")
public class SystemType extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public String name;

    @Column(name = "system_key", nullable = false)
    public String systemKey;

    /** Where the centre of a system is read; null means the configured default. */
    @Column(name = "group_key")
    public String groupKey;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "system_type_component", joinColumns = @JoinColumn(name = "system_type_id"))
    @OrderColumn(name = "position")
    public List<Component> components = new ArrayList<>();

    /** What the components need of each other, as written; empty: any mix is allowed. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "rules", nullable = false)
    public List<RuleSpec> rules = new ArrayList<>();

    /** What the guard does about hawkBit work outside Qawk that would move this type's systems. */
    @Enumerated(EnumType.STRING)
    @Column(name = "guard", nullable = false)
    public GuardMode guard = GuardMode.WATCH;

    /** Four eyes: a deployment of this type waits for an approver other than its creator (issue 42). */
    @Column(name = "approval_required", nullable = false)
    public boolean approvalRequired;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Who last created or changed it (the audit listing's actor for that edit); null when nobody signed in did. */
    @Column(name = "updated_by")
    public String updatedBy;

    @Version
    public long version;

    public static Optional<SystemType> findByName(String name) {
        return find("name", name).firstResultOptional();
    }

    /** The rules, read (they were checked when stored). */
    public CompatibilityRules compatibility() {
        return CompatibilityRules.of(rules, components.stream().map(c -> c.componentType).toList());
    }

    public Optional<Component> component(String componentType) {
        return components.stream().filter(c -> c.componentType.equals(componentType)).findFirst();
    }
}
