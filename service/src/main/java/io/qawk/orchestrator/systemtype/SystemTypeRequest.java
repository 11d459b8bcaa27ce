package io.qawk.orchestrator.systemtype;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The body of a create or replace: a name, the system key, an optional group key and the components. */
@JsonIgnoreProperties(ignoreUnknown = false)
public record SystemTypeRequest(String name, String systemKey, String groupKey, List<ComponentRequest> components) {

    /** {@code health}: optional, the query its devices must keep matching during a soak. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record ComponentRequest(String componentType, String match, String health) {
    }
}
