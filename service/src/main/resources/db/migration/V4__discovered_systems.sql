-- The systems each type's devices form, with their channel, computed once per inventory sync so that listing them
-- (paged, at tens of thousands of systems) is an indexed read instead of an aggregate over every device.
create table discovered_system (
    system_type_id bigint       not null references system_type (id) on delete cascade,
    system_name    varchar(256) not null,
    group_name     varchar(256),
    devices        int          not null,
    components     jsonb        not null,
    fleet_id       bigint,
    mixed          boolean      not null,
    primary key (system_type_id, system_name)
);
create index discovered_system_by_group on discovered_system (system_type_id, group_name, system_name);
