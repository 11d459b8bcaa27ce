package io.qawk.orchestrator.hawkbit;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * hawkBit's JSON, as Jackson records: only the fields Qawk reads; unknown fields are ignored, so later hawkBit
 * versions adding fields change nothing. Where a field exists only on some versions, {@link HawkbitVersions} says
 * which. Times are epoch milliseconds. A list answer is {@code {"content":[…],"total":N,"size":n}}
 * ({@link HawkbitClient} pages through it).
 */
final class HawkbitShapes {

    private HawkbitShapes() {
    }

    /** A target of {@code GET /targets}; the list carries no attributes and no sets. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Target(String controllerId, String name, String updateStatus, Long lastControllerRequestAt,
            Long installedAt, Long createdAt) {
    }

    /** A distribution set ({@code /distributionsets/{id}}, {@code /targets/{id}/installedDS|assignedDS}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record DistributionSet(Long id, String name, String version, Boolean complete) {
    }

    /** An entry of {@code /targets/{id}/actions}, or the single action. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Action(Long id, String status, Boolean active, String detailStatus, Long createdAt, Long lastModifiedAt,
            @JsonProperty("_links") Links links, String createdBy) {
    }

    /** An entry of an action's status history ({@code …/actions/{id}/status}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ActionStatus(Long id, String type, Long reportedAt) {
    }

    /** An entry of {@code /targets/{id}/metadata}; the value is kept as JSON and shown as text. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Metadata(String key, JsonNode value) {
    }

    /** One target of a bulk assignment request ({@code POST /distributionsets/{id}/assignedTargets}). */
    record AssignTarget(String id, String type) {
    }

    /** The answer to a bulk assignment. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record AssignmentAnswer(Integer assigned, Integer alreadyAssigned, Integer total, List<ActionId> assignedActions) {
    }

    /** A new action of an assignment answer. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ActionId(Long id, @JsonProperty("_links") Links links) {
    }

    /** hawkBit's error answer. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ErrorBody(String errorCode, String message) {
    }

    /** HAL links; only those Qawk reads. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Links(Link self, Link distributionset) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Link(String href) {
    }

    /**
     * A rollout of {@code GET /rollouts}: its status in lower case on every version ({@code creating}, {@code ready},
     * {@code waiting_for_approval}, {@code starting}, {@code running}, {@code paused}, {@code finished}, …; 1.x adds
     * {@code scheduled}, {@code stopping}); {@code deleted} when hawkBit is removing it.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Rollout(Long id, String name, String status, String targetFilterQuery, Long distributionSetId,
            Boolean deleted, Long lastModifiedAt) {
    }

    /** A deployment group of a rollout. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record RolloutGroup(Long id, String name, String status) {
    }

    /** A target filter; {@code autoAssignDistributionSet} is the id of its auto-assigned set, null when none. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record TargetFilter(Long id, String name, String query, Long autoAssignDistributionSet, String autoAssignActionType,
            Long lastModifiedAt) {
    }

    /** The body of {@code POST /targetfilters/{id}/autoAssignDS}. */
    record AutoAssignment(Long id, String type) {
    }
}
