package io.qawk.orchestrator.manifest;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/**
 * One component's destination: a distribution set (its hawkBit id, and name:version as it was resolved), an order, and
 * optionally the query its devices must match once they installed it ({@code verify}).
 */
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

    /**
     * FIQL over the target, e.g. {@code attribute.app_version==2.0}, that a device must match after it finished
     * installing, within the deployment's verify timeout; null: finishing is enough.
     */
    @Column(name = "verify")
    public String verify;

    public ManifestComponent() {
    }

    public ManifestComponent(String componentType, long distributionSetId, String distributionSet, int order,
                             String verify) {
        this.componentType = componentType;
        this.distributionSetId = distributionSetId;
        this.distributionSet = distributionSet;
        this.order = order;
        this.verify = verify;
    }
}
