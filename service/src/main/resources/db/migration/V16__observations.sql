-- Issue 32: when each deployment was last observed, and by which service process. A device's order and verify
-- timeouts and a system's soak count only time for which Qawk held a fresh observation; the next pass (on this
-- replica, on another one, or after a restart) counts a longer gap since this moment as unobserved.
-- observed_at is when the pass's questions were sent to hawkBit, not when the answers came.
create table deployment_observation (
    deployment_id bigint       primary key references system_deployment (id) on delete cascade,
    observed_at   timestamptz  not null,
    observer      varchar(200) not null
);
