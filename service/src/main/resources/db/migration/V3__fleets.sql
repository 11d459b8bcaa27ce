-- Channels (fleets): who is in them (a target query), where releases go next, and how their orchestrator works.
create table fleet (
    id                 bigserial primary key,
    name               varchar(128)  not null,
    match              varchar(2000) not null,
    promotes_to_id     bigint references fleet (id),
    max_parallel       int           not null default 1,
    max_failed         int           not null default 0,
    by_centre          boolean       not null default false,
    centres            jsonb         not null default '[]'::jsonb,
    device_max_failed  int           not null default 0,
    device_batch_size  int           not null default 500,
    soak_seconds       int           not null default 0,
    managed_by         varchar(16)   not null default 'api',
    created_at         timestamptz   not null,
    updated_at         timestamptz   not null,
    version            bigint        not null default 0,
    constraint fleet_name_unique unique (name)
);

-- Which targets each channel's query matched at the last inventory sync; a device in two channels is a conflict.
create table fleet_member (
    fleet_id      bigint       not null references fleet (id) on delete cascade,
    controller_id varchar(256) not null,
    conflict      boolean      not null default false,
    primary key (fleet_id, controller_id)
);
create index fleet_member_by_device on fleet_member (controller_id);

-- A release: a set for the channel's standalone devices and/or a manifest for its systems.
create table fleet_release (
    id                   bigserial primary key,
    fleet_id             bigint       not null references fleet (id) on delete cascade,
    distribution_set_id  bigint,
    distribution_set     varchar(300),
    manifest_id          bigint references manifest (id),
    deployment_id        bigint references system_deployment (id),
    promoted_from_id     bigint references fleet_release (id),
    state                varchar(16)  not null,
    halted               boolean      not null default false,
    halt_cause           varchar(16),
    halt_reason          varchar(1000),
    accepted_failures    int          not null default 0,
    created_at           timestamptz  not null,
    created_by           varchar(128),
    completed_at         timestamptz,
    version              bigint       not null default 0
);
create index fleet_release_by_fleet on fleet_release (fleet_id, state);

-- The standalone half of a release: each device the set goes to, and how it went.
create table release_device (
    release_id    bigint       not null references fleet_release (id) on delete cascade,
    controller_id varchar(256) not null,
    state         varchar(16)  not null,
    assigned_at   timestamptz,
    action_id     bigint,
    detail        varchar(1000),
    primary key (release_id, controller_id)
);
