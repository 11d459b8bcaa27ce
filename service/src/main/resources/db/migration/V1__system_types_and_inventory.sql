-- System types (topologies): what components a system has and how a device says which system it is in.
create table system_type (
    id          bigserial primary key,
    name        varchar(128) not null,
    system_key  varchar(140) not null,
    group_key   varchar(140),
    created_at  timestamptz  not null,
    updated_at  timestamptz  not null,
    version     bigint       not null default 0,
    constraint system_type_name_unique unique (name)
);

create table system_type_component (
    system_type_id bigint        not null references system_type (id) on delete cascade,
    position       int           not null,
    component_type varchar(128)  not null,
    match          varchar(2000) not null,
    primary key (system_type_id, position)
);

-- The local copy of the hawkBit targets that any component matches; refreshed by the inventory sync.
create table device (
    controller_id    varchar(256) primary key,
    name             varchar(256),
    update_status    varchar(32),
    last_poll_at     timestamptz,
    installed_at     timestamptz,
    installed_set_id bigint,
    installed_set    varchar(300),
    assigned_set_id  bigint,
    assigned_set     varchar(300),
    attributes       jsonb        not null default '{}'::jsonb,
    metadata         jsonb,
    synced_at        timestamptz  not null
);

-- Which system (and component, and centre) a device forms for one system type; problem devices keep a reason.
create table system_member (
    system_type_id bigint       not null references system_type (id) on delete cascade,
    controller_id  varchar(256) not null references device (controller_id) on delete cascade,
    component_type varchar(128),
    system_name    varchar(256),
    group_name     varchar(256),
    problem        varchar(32),
    primary key (system_type_id, controller_id)
);
create index system_member_by_system on system_member (system_type_id, system_name);

-- One row: how the last inventory sync went (readiness, metrics and the API read it).
create table inventory_sync_state (
    id                int primary key,
    last_started_at   timestamptz,
    last_completed_at timestamptz,
    last_error        varchar(2000),
    devices           int not null default 0,
    requests          int not null default 0,
    duration_ms       bigint not null default 0
);
insert into inventory_sync_state (id) values (1);
