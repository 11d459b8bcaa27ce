package io.qawk.orchestrator.testkit;

import java.time.Instant;
import java.util.List;

/**
 * What a simulated device did with one hawkBit action, as seen by the device.
 *
 * @param actionId hawkBit action id
 * @param kind {@link Kind#DEPLOYMENT} (deploymentBase) or {@link Kind#CANCEL} (cancelAction confirmed)
 * @param distributionSetId the action's distribution set id, from the Management API
 *        ({@code GET /rest/v1/targets/{id}/actions/{aid}} → {@code _links.distributionset}); null if the lookup failed
 * @param distributionSetName the set's name (null if unknown)
 * @param distributionSetVersion the set's version (null if unknown)
 * @param modules the deploymentBase chunks as {@code "part/name:version"} (software modules, not the set)
 * @param receivedAt when the device first saw the action in a poll answer
 * @param finishedAt when the final feedback was accepted (null while running)
 * @param outcome see {@link Outcome}
 * @param detail last feedback answer problem or other free text (may be null)
 */
public record ActionRecord(long actionId, Kind kind, Long distributionSetId, String distributionSetName,
        String distributionSetVersion, List<String> modules, Instant receivedAt, Instant finishedAt,
        Outcome outcome, String detail) {

    public enum Kind { DEPLOYMENT, CANCEL }

    public enum Outcome {
        /** received, final feedback not sent yet */
        RUNNING,
        /** closed/success accepted by hawkBit */
        SUCCESS,
        /** closed/failure accepted by hawkBit */
        FAILURE,
        /** hawkBit canceled the action; the device confirmed the cancel */
        CANCELED,
        /** the device went silent before finishing; the action is left open in hawkBit */
        ABANDONED,
        /** hawkBit refused the final feedback (e.g. 410 for a closed action) or the request failed */
        FEEDBACK_REJECTED
    }

    /** {@code "name:version"} of the set, or null when unknown. */
    public String distributionSet() {
        return distributionSetName == null ? null : distributionSetName + ":" + distributionSetVersion;
    }

    ActionRecord with(Outcome o, Instant finished, String d) {
        return new ActionRecord(actionId, kind, distributionSetId, distributionSetName, distributionSetVersion,
                modules, receivedAt, finished, o, d);
    }

    ActionRecord withSet(Long id, String name, String version) {
        return new ActionRecord(actionId, kind, id, name, version, modules, receivedAt, finishedAt, outcome, detail);
    }
}
