package io.qawk.orchestrator.manifest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/**
 * The body of "save what they run as a manifest": a name, the system type, and one of its census mixes as {@code GET
 * …/systemtypes/{id}/versions} lists it ({@code versions}: component → the sets its devices run); {@code orders}
 * optional, per component (without it: what the type's rules imply, or everything at order 1 when it has none).
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record CensusManifestRequest(String name, Long systemTypeId, Map<String, List<String>> versions,
                                    Map<String, Integer> orders) {
}
