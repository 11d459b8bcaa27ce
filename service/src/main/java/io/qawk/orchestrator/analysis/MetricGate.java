package io.qawk.orchestrator.analysis;

/**
 * A deployment's (or a channel's) metric gate, as operators write it: a PromQL instant query per system, with
 * {@code {system}} and {@code {centre}} standing for the system's key and its centre inside quoted label values, and
 * the condition its value must meet, e.g.
 * {@code {"query": "sum(rate(lane_errors_total{system=\"{system}\",centre=\"{centre}\"}[1m]))", "condition": "< 0.05"}}.
 * Checked by {@link MetricGates#check}; evaluated by {@link MetricGates#verdict}.
 */
public record MetricGate(String query, String condition) {

    /** Both fields left out ({@code "metricGate": {}}): on a channel, removes its gate. */
    public boolean empty() {
        return query == null && condition == null;
    }
}
