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
import jakarta.persistence.LockModeType;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A manifest's content as a deployment started with it, numbered per manifest (1, 2, …). A started deployment runs
 * its revision for good — taking a system again, systems joining later, promotion — while the manifest itself stays
 * editable: an edit or a re-import is frozen as the next revision when a deployment starts with it.
 */
@Entity
@Table(name = "manifest_revision")
public class ManifestRevision extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "manifest_id", nullable = false)
    public long manifestId;

    @Column(nullable = false)
    public int revision;

    @Column(nullable = false)
    public String name;

    @Column(name = "system_type_id", nullable = false)
    public long systemTypeId;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "manifest_revision_component", joinColumns = @JoinColumn(name = "revision_id"))
    @OrderColumn(name = "position")
    public List<ManifestComponent> components = new ArrayList<>();

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** Which revision runs, and whether the manifest has been changed since it was frozen. */
    public record Pinned(int revision, boolean manifestChangedSince) {
    }

    /**
     * The manifest's content as a revision: its latest one if that still holds what the manifest says, else a new
     * one numbered after it. Locks (and re-reads) the manifest, so two deployments starting at once agree.
     */
    public static ManifestRevision freeze(Manifest m, Instant now) {
        getEntityManager().refresh(m, LockModeType.PESSIMISTIC_WRITE);
        Optional<ManifestRevision> latest = find("manifestId = ?1 order by revision desc", m.id).firstResultOptional();
        if (latest.isPresent() && latest.get().holds(m)) {
            return latest.get();
        }
        ManifestRevision r = new ManifestRevision();
        r.manifestId = m.id;
        r.revision = latest.map(l -> l.revision + 1).orElse(1);
        r.name = m.name;
        r.systemTypeId = m.systemTypeId;
        m.components.forEach(c -> r.components.add(new ManifestComponent(c.componentType, c.distributionSetId,
                c.distributionSet, c.order, c.verify)));
        r.createdAt = now;
        r.persist();
        return r;
    }

    /** The revision a deployment runs and whether its manifest changed since; null when none is pinned (a draft). */
    public static Pinned pinned(Long revisionId) {
        ManifestRevision r = revisionId == null ? null : findById(revisionId);
        if (r == null) {
            return null;
        }
        Manifest m = Manifest.findById(r.manifestId);
        return new Pinned(r.revision, m != null && !r.holds(m));
    }

    /**
     * True when the manifest says what this revision says: the same system type, sets, orders and verification
     * queries (names aside).
     */
    public boolean holds(Manifest m) {
        return m.systemTypeId == systemTypeId && content(components).equals(content(m.components));
    }

    /**
     * This revision as a {@link Manifest} to read from (its id is the manifest's). It is a detached copy, never
     * persisted: the engine reads a deployment's manifest through it.
     */
    public Manifest content() {
        Manifest m = new Manifest();
        m.id = manifestId;
        m.name = name;
        m.systemTypeId = systemTypeId;
        components.forEach(c -> m.components.add(new ManifestComponent(c.componentType, c.distributionSetId,
                c.distributionSet, c.order, c.verify)));
        m.createdAt = createdAt;
        m.updatedAt = createdAt;
        return m;
    }

    private static Set<List<Object>> content(List<ManifestComponent> components) {
        Set<List<Object>> out = new HashSet<>();
        components.forEach(c -> out.add(Arrays.asList(c.componentType, c.distributionSetId, c.distributionSet,
                c.order, c.verify)));
        return out;
    }
}
