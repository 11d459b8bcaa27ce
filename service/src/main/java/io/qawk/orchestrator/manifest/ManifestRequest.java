package io.qawk.orchestrator.manifest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The body of a create or replace: a name, the system type it is for, and per component a set and an order. */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ManifestRequest(String name, Long systemTypeId, List<ComponentRequest> components) {

    /** {@code verify}: optional, the query a device must match once it installed the set. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record ComponentRequest(String componentType, Long distributionSetId, Integer order, String verify) {

        public ComponentRequest(String componentType, Long distributionSetId, Integer order) {
            this(componentType, distributionSetId, order, null);
        }
    }
}
