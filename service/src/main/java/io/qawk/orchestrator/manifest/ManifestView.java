package io.qawk.orchestrator.manifest;

import java.time.Instant;
import java.util.List;

/** A manifest as the API shows it: each component's set also as {@code name:version}, and the distinct orders. */
public record ManifestView(long id, String name, long systemTypeId, List<ComponentView> components,
                           List<Integer> orders, Instant createdAt, Instant updatedAt,
                           String updatedBy) {

    /** {@code verify}: null when the component names none. */
    public record ComponentView(String componentType, long distributionSetId, String distributionSet, int order,
                                String verify) {
    }

    public static ManifestView of(Manifest m) {
        return new ManifestView(m.id, m.name, m.systemTypeId,
                m.components.stream()
                        .map(c -> new ComponentView(c.componentType, c.distributionSetId, c.distributionSet, c.order,
                                c.verify))
                        .toList(),
                m.orders(), m.createdAt, m.updatedAt, m.updatedBy);
    }
}
