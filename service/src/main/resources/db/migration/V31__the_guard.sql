-- Issue 40, the guard: what hawkBit is about to do to system members outside Qawk (rollouts, auto-assignments, hand
-- assignments), and what Qawk did about it. A type's guard says whether Qawk only watches or also holds.
alter table system_type add column guard varchar(8) not null default 'WATCH';

-- The threats of the last guard pass (one replica's, under the guard's advisory lock): one row per hawkBit object.
create table threat (
    id                  bigserial    primary key,
    source              varchar(16)  not null,
    hawkbit_id          bigint       not null,
    name                varchar(512),
    status              varchar(32),
    distribution_set_id bigint,
    distribution_set    varchar(300),
    action              varchar(16)  not null,
    system_type_ids     bigint[]     not null,
    systems             jsonb        not null,
    seen_at             timestamptz  not null,
    updated_at          timestamptz  not null,
    unique (source, hawkbit_id)
);

-- What the guard did: a rollout paused or denied, an auto-assignment switched off (its set kept, to switch it on
-- again), an action cancelled. Released by a person: the guard leaves that hawkBit object alone from then on.
create table guard_hold (
    id                  bigserial    primary key,
    source              varchar(16)  not null,
    hawkbit_id          bigint       not null,
    name                varchar(512),
    what                varchar(16)  not null,
    controller_id       varchar(256),
    action_id           bigint,
    distribution_set_id bigint,
    distribution_set    varchar(300),
    action_type         varchar(32),
    reason              text         not null,
    system_type_ids     bigint[]     not null,
    systems             jsonb        not null,
    held_at             timestamptz  not null,
    released_at         timestamptz,
    released_by         varchar(128)
);
create index guard_hold_object on guard_hold (source, hawkbit_id);

-- An entry the service wrote itself (the guard's holds) says why.
alter table audit_entry add column detail text;
