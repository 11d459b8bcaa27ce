package io.qawk.orchestrator.channel;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.window.Windows;

import java.util.List;

/**
 * Create (POST) or change (PUT, or PATCH as a JSON Merge Patch) a channel. On a change every field is optional and only
 * those given change, inside {@code orchestrator} and {@code devices} too; {@code null} clears what may be empty
 * ({@link ChannelUpdate}); {@code distributionSetId} and/or {@code manifestId} make a new release. {@code approval}: {@code required} holds
 * every deployment its releases start until an approver other than the release's creator approves it (issue 42);
 * {@code none}, the default, does not.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ChannelRequest(String name, String match, Long promotesTo, Orchestrator orchestrator, Devices devices,
                           Integer soakSeconds, Long distributionSetId, Long manifestId, String approval) {

    public ChannelRequest(String name, String match, Long promotesTo, Orchestrator orchestrator, Devices devices,
                          Integer soakSeconds, Long distributionSetId, Long manifestId) {
        this(name, match, promotesTo, orchestrator, devices, soakSeconds, distributionSetId, manifestId, null);
    }

    /**
     * How the channel's orchestrator takes its systems; {@code verifyTimeoutSeconds} and {@code soakSeconds} go into
     * the deployments its releases start (how long a device may take to verify, how long a system soaks);
     * {@code metricGate} goes into every deployment its releases start ({@code {}} removes it); {@code windows}: when
     * its releases' deployments may start them, per centre (on PUT, {@code {}} removes them).
     */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record Orchestrator(Integer maxParallel, Integer maxFailed, Boolean byCentre, List<String> centres,
                               Integer verifyTimeoutSeconds, Integer soakSeconds, MetricGate metricGate,
                               Windows windows) {
    }

    /** The standalone devices' failure budget and batch size. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record Devices(Integer maxFailed, Integer batchSize) {
    }

    boolean releases() {
        return distributionSetId != null || manifestId != null;
    }
}
