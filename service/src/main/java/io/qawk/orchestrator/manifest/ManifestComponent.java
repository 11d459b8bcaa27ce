package io.qawk.orchestrator.manifest;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** One component's destination: a distribution set (its hawkBit id, and name:version as it was resolved) and an order. */
@Embeddable
public class ManifestComponent {

    @Column(name = "component_type", nullable = false)
    public String componentType;

    @Column(name = "distribution_set_id", nullable = false)
    public long distributionSetId;

    /** {@code name:version}, read from hawkBit when the manifest was saved. */
    @Column(name = "distribution_set", nullable = false)
    public String distributionSet;

    @Column(name = "update_order", nullable = false)
    public int order;

    public ManifestComponent() {
    }

    public ManifestComponent(String componentType, long distributionSetId, String distributionSet, int order) {
        this.componentType = componentType;
        this.distributionSetId = distributionSetId;
        this.distributionSet = distributionSet;
        this.order = order;
    }
}
