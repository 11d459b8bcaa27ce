-- Issue 14. Time hawkBit could not be observed (or the deployment was paused) does not count toward a device's
-- order timeout. A deployment the engine cannot observe has a row here, from when its last observation was made;
-- the pass that observes it again extends its devices in flight by that long and deletes the row, in one
-- transaction, so neither a crash nor a second replica extends twice.
create table deployment_unobserved (
    deployment_id bigint       primary key references system_deployment (id) on delete cascade,
    since         timestamptz  not null,
    cause         varchar(256) not null
);

-- Per device: seconds of its current assignment not counted toward its order timeout (reset with each new
-- assignment), and how it failed when that is more than "it reported a failure" (named in the run's reason).
alter table run_device add column unobserved_seconds bigint not null default 0;
alter table run_device add column failure varchar(1024);
