package io.qawk.orchestrator.manifest;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** The state a system type should reach: per component a distribution set and an order (lower first, equal together). */
@Entity
@Table(name = "manifest")
public class Manifest extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public String name;

    @Column(name = "system_type_id", nullable = false)
    public long systemTypeId;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "manifest_component", joinColumns = @JoinColumn(name = "manifest_id"))
    @OrderColumn(name = "position")
    public List<ManifestComponent> components = new ArrayList<>();

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Who last created or changed it (the audit listing's actor for that edit); null when nobody signed in did. */
    @Column(name = "updated_by")
    public String updatedBy;

    @Version
    public long version;

    public static Optional<Manifest> findByName(String name) {
        return find("name", name).firstResultOptional();
    }

    public Optional<ManifestComponent> component(String componentType) {
        return components.stream().filter(c -> c.componentType.equals(componentType)).findFirst();
    }

    /** The distinct orders, lowest first. */
    public List<Integer> orders() {
        TreeSet<Integer> orders = new TreeSet<>();
        components.forEach(c -> orders.add(c.order));
        return List.copyOf(orders);
    }
}
