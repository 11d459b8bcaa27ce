package io.qawk.orchestrator.fleet;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * Create (POST) or change (PUT) a channel. On PUT every field is optional and only those given change;
 * {@code distributionSetId} and/or {@code manifestId} make a new release.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record FleetRequest(String name, String match, Long promotesTo, Orchestrator orchestrator, Devices devices,
                           Integer soakSeconds, Long distributionSetId, Long manifestId) {

    /**
     * How the channel's orchestrator takes its systems; {@code verifyTimeoutSeconds} and {@code soakSeconds} go into
     * the deployments its releases start (how long a device may take to verify, how long a system soaks).
     */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record Orchestrator(Integer maxParallel, Integer maxFailed, Boolean byCentre, List<String> centres,
                               Integer verifyTimeoutSeconds, Integer soakSeconds) {

        public Orchestrator(Integer maxParallel, Integer maxFailed, Boolean byCentre, List<String> centres) {
            this(maxParallel, maxFailed, byCentre, centres, null, null);
        }
    }

    /** The standalone devices' failure budget and batch size. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record Devices(Integer maxFailed, Integer batchSize) {
    }

    boolean releases() {
        return distributionSetId != null || manifestId != null;
    }
}
