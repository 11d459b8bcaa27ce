-- Issue 15: a system is updated when its devices show, after the update, that it works. A device says so through
-- its attributes: a manifest component may name a verification query and a system type component a health query,
-- both FIQL over the target like a component's match.
alter table manifest_component add column verify varchar(2000);
alter table manifest_revision_component add column verify varchar(2000);
alter table system_type_component add column health varchar(2000);

-- Per deployment: how long a device that finished may take to match its verification query, and how long the whole
-- system must stay healthy after its last order (0: no soak, the behaviour before).
alter table system_deployment add column verify_timeout_seconds int not null default 300;
alter table system_deployment add column soak_seconds int not null default 0;

-- Per device of a run: its queries as they were when the system was photographed (an edit later does not change a
-- run under way), and since when it waits to verify (its deadline survives a restart).
alter table run_device add column verify_query varchar(2000);
alter table run_device add column health_query varchar(2000);
alter table run_device add column verifying_since timestamptz;

-- Per run: its soak (state VERIFYING), from when to when. The end is stored, not computed from memory, so a restart
-- continues the soak; time hawkBit could not be asked (or the deployment was paused) moves it on.
alter table system_run add column soak_started_at timestamptz;
alter table system_run add column soak_ends_at timestamptz;

-- A channel's orchestrator settings carry both into the deployments its releases start.
alter table fleet add column orchestrator_verify_timeout_seconds int not null default 300;
alter table fleet add column orchestrator_soak_seconds int not null default 0;

-- A run that soaks still drives its system: no other deployment may start it meanwhile.
drop index system_run_one_driver;
create unique index system_run_one_driver on system_run (system_type_id, system_name)
 where state in ('RUNNING', 'VERIFYING', 'ROLLING_BACK') or (state = 'SUCCEEDED' and rollback_cause = 'MANUAL');
