-- Maintenance windows per centre (issue 15): when a deployment may start systems, as the request gave them
-- ({"default": {...}, "centres": {"c01": {"schedule", "duration", "timezone"}}}). Null: every centre always open,
-- as before. A channel keeps its own for the deployments its releases start. Nothing else is stored: whether a
-- window is open is read from these and the clock whenever it is asked.
alter table system_deployment add column windows jsonb;
alter table fleet add column windows jsonb;
