-- Issue 57: the ledger is hawkBit's. A run whose records hawkBit's actions contradict (a restore, a standby promoted
-- lost the commits that recorded them; someone replaced what Qawk sent) is held here, with words naming the actions
-- and what hawkBit shows, until a person adopts what hawkBit shows or rolls the system back. Expand only: a release
-- that does not know the table ignores it.
create table run_divergence (
    run_id        bigint        primary key references system_run (id) on delete cascade,
    deployment_id bigint        not null references system_deployment (id) on delete cascade,
    found_at      timestamptz   not null,
    words         varchar(4000) not null
);
create index run_divergence_by_deployment on run_divergence (deployment_id);
