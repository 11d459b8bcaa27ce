-- Manifests: for each component of a system type, the distribution set it should run and in which order.
create table manifest (
    id             bigserial primary key,
    name           varchar(128) not null,
    system_type_id bigint       not null references system_type (id),
    created_at     timestamptz  not null,
    updated_at     timestamptz  not null,
    version        bigint       not null default 0,
    constraint manifest_name_unique unique (name)
);

create table manifest_component (
    manifest_id          bigint       not null references manifest (id) on delete cascade,
    position             int          not null,
    component_type       varchar(128) not null,
    distribution_set_id  bigint       not null,
    distribution_set     varchar(300) not null,
    update_order         int          not null check (update_order between 1 and 1000),
    primary key (manifest_id, position)
);

-- System deployments: a manifest applied to systems, a few at a time.
create table system_deployment (
    id                    bigserial primary key,
    name                  varchar(128) not null,
    manifest_id           bigint       not null references manifest (id),
    fleet_id              bigint,
    groups                jsonb        not null default '[]'::jsonb,
    systems               jsonb        not null default '[]'::jsonb,
    max_parallel          int          not null,
    max_failed            int          not null,
    by_centre             boolean      not null,
    order_timeout_seconds int          not null,
    phase                 varchar(16)  not null,
    paused                boolean      not null default false,
    aborted               boolean      not null default false,
    created_at            timestamptz  not null,
    created_by            varchar(128),
    started_at            timestamptz,
    ended_at              timestamptz,
    version               bigint       not null default 0
);
create index system_deployment_by_phase on system_deployment (phase);

-- One run per system in scope.
create table system_run (
    id                 bigserial primary key,
    deployment_id      bigint       not null references system_deployment (id) on delete cascade,
    system_name        varchar(256) not null,
    group_name         varchar(256),
    seq                int          not null,
    state              varchar(24)  not null,
    current_order      int,
    failed_order       int,
    rollback_cause     varchar(16),
    rollback_reason    varchar(1000),
    reason             varchar(4000),
    attempt            int          not null default 1,
    started_at         timestamptz,
    ended_at           timestamptz,
    version            bigint       not null default 0,
    constraint system_run_unique unique (deployment_id, system_name)
);
create index system_run_by_deployment_state on system_run (deployment_id, state);

-- The photograph and progress of each device of a run: what it ran before (from), what it gets (to).
create table run_device (
    run_id              bigint       not null references system_run (id) on delete cascade,
    controller_id       varchar(256) not null,
    component_type      varchar(128) not null,
    update_order        int          not null,
    from_set_id         bigint,
    from_set            varchar(300),
    to_set_id           bigint       not null,
    to_set              varchar(300) not null,
    state               varchar(24)  not null,
    failed              boolean      not null default false,
    intent_at           timestamptz,
    assigned_at         timestamptz,
    action_id           bigint,
    finished_at         timestamptz,
    detail              varchar(1000),
    primary key (run_id, controller_id)
);

-- The run's timeline.
create table run_event (
    id          bigserial primary key,
    run_id      bigint       not null references system_run (id) on delete cascade,
    at          timestamptz  not null,
    type        varchar(32)  not null,
    message     varchar(4000) not null,
    actor       varchar(128)
);
create index run_event_by_run on run_event (run_id, id);
