-- A deployment's and a channel's metric gate (analysis/MetricGate): a PromQL query per system, with {system} and
-- {centre} in it, and the condition its value must meet during the soak. Both null: no gate. A channel's gate is
-- copied into the deployments its releases start.
alter table system_deployment
    add column metric_gate_query     text,
    add column metric_gate_condition text,
    add constraint system_deployment_metric_gate_whole
        check ((metric_gate_query is null) = (metric_gate_condition is null));

alter table fleet
    add column metric_gate_query     text,
    add column metric_gate_condition text,
    add constraint fleet_metric_gate_whole
        check ((metric_gate_query is null) = (metric_gate_condition is null));
