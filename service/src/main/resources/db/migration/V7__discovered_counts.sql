-- How many systems each type has per centre, written with discovered_system: the systems listing says its total on
-- every request, and counting 25,000 freshly rewritten rows each time cost more than the page itself.
create table discovered_count (
    system_type_id bigint       not null references system_type (id) on delete cascade,
    group_name     varchar(256),
    systems        int          not null
);
create index discovered_count_by_type on discovered_count (system_type_id, group_name);
