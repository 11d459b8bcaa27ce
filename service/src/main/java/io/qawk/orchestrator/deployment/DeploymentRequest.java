package io.qawk.orchestrator.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.window.Windows;

import java.util.List;

/**
 * The body that creates a draft deployment. Unset numbers take their defaults; {@code verifyTimeoutSeconds}: how long
 * a device that finished may take to match its component's verification query (300); {@code soakSeconds}: how long
 * the whole system must stay healthy after its last order before it counts as updated (0: no soak); no
 * {@code metricGate}, no gate (a gate is evaluated during the soak); no {@code windows}: every centre is always open.
 */
public record DeploymentRequest(String name, Long manifestId, @JsonProperty("fleetId") Long channelId, List<String> groups,
                                List<String> systems, Integer maxParallel, Integer maxFailed, Boolean byCentre,
                                Integer orderTimeoutSeconds, Integer verifyTimeoutSeconds, Integer soakSeconds,
                                MetricGate metricGate, Windows windows) {
}
