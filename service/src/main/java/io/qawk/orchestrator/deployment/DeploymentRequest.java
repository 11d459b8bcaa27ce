package io.qawk.orchestrator.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.window.Windows;

import java.util.List;

/**
 * The body that creates a draft deployment. Unset numbers take their defaults; {@code verifyTimeoutSeconds}: how long
 * a device that finished may take to match its component's verification query (300); {@code soakSeconds}: how long
 * the whole system must stay healthy after its last order before it counts as updated (0: no soak); no
 * {@code metricGate}, no gate (a gate is evaluated during the soak); no {@code windows}: every centre is always open.
 *
 * <p>An edit of a draft ({@code PUT}) keeps the settings the body leaves out; {@code PATCH} takes a JSON Merge Patch of
 * this shape ({@code common/Updates}); {@code null} sets a field back to its default (no channel, no gate, no
 * windows, every group and system, the default numbers).
 */
public record DeploymentRequest(String name, Long manifestId, @JsonProperty("fleetId") Long channelId, List<String> groups,
                                List<String> systems, Integer maxParallel, Integer maxFailed, Boolean byCentre,
                                Integer orderTimeoutSeconds, Integer verifyTimeoutSeconds, Integer soakSeconds,
                                MetricGate metricGate, Windows windows) {

    /** What a deployment is set to, as a request: the shape an edit's missing fields and a PATCH are merged into. */
    public static DeploymentRequest of(SystemDeployment d) {
        return new DeploymentRequest(d.name, d.manifestId, d.channelId, List.copyOf(d.groups), List.copyOf(d.systems),
                d.maxParallel, d.maxFailed, d.byCentre, d.orderTimeoutSeconds, d.verifyTimeoutSeconds, d.soakSeconds,
                d.metricGate(), d.windows);
    }
}
