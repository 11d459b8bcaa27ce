package io.qawk.orchestrator.manifest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * The body of a create or replace: a name, the system type it is for, and per component a set and an order.
 *
 * <p>On {@code PUT} a field left out keeps its stored value and a component given again (by its {@code componentType})
 * keeps the fields it leaves out (its set, order, {@code verify}); {@code PATCH} takes a JSON Merge Patch of this shape
 * ({@code common/Updates}). A component's {@code "verify": null} removes its verification query.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ManifestRequest(String name, Long systemTypeId, List<ComponentRequest> components) {

    /** What is stored, as a request: the shape a PUT's missing fields and a PATCH are merged into. */
    static ManifestRequest of(Manifest m) {
        return new ManifestRequest(m.name, m.systemTypeId, m.components.stream()
                .map(c -> new ComponentRequest(c.componentType, c.distributionSetId, c.order, c.verify)).toList());
    }

    /** {@code verify}: optional, the query a device must match once it installed the set. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record ComponentRequest(String componentType, Long distributionSetId, Integer order, String verify) {

        public ComponentRequest(String componentType, Long distributionSetId, Integer order) {
            this(componentType, distributionSetId, order, null);
        }
    }
}
