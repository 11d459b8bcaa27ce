package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.inventory.ManifestTargets;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The manifests as the inventory's census compares systems with them. */
@ApplicationScoped
public class ManifestCensus implements ManifestTargets {

    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Target> of(long systemTypeId) {
        List<Manifest> manifests = Manifest.list("systemTypeId = ?1 order by name", systemTypeId);
        return manifests.stream().map(m -> {
            Map<String, String> sets = new LinkedHashMap<>();
            m.components.forEach(c -> sets.put(c.componentType, c.distributionSet));
            Optional<ManifestRevision> latest = ManifestRevision.find("manifestId = ?1 order by revision desc", m.id)
                    .firstResultOptional();
            Integer revision = latest.filter(r -> r.holds(m)).map(r -> r.revision).orElse(null);
            return new Target(m.id, m.name, revision, sets);
        }).toList();
    }
}
