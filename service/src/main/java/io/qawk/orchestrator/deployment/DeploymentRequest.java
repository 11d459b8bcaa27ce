package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.window.Windows;

import java.util.List;

/**
 * The body that creates a draft deployment. Unset numbers take their defaults; no {@code metricGate}, no gate; no
 * {@code windows}: every centre is always open.
 */
public record DeploymentRequest(String name, Long manifestId, Long fleetId, List<String> groups, List<String> systems,
                                Integer maxParallel, Integer maxFailed, Boolean byCentre, Integer orderTimeoutSeconds,
                                MetricGate metricGate, Windows windows) {
}
