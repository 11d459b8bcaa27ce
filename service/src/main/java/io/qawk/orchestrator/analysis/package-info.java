/**
 * Metric gates: a deployment's Prometheus query and condition, asked per system during its soak, and their verdicts.
 */
package io.qawk.orchestrator.analysis;
