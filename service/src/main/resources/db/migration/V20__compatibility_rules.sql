-- Compatibility rules of a system type (issue 33): what its components need of each other, as operators wrote them
-- ([{"if": {...}, "then": {...}, "why": "..."}]); read and evaluated by rules/CompatibilityRules.
alter table system_type add column rules jsonb not null default '[]'::jsonb;

-- What each system runs (component -> its devices' distinct installed sets, null for a device that runs nothing) and
-- the first rule that mix breaks, both computed at every inventory sync with the rest of the discovered system.
alter table discovered_system add column versions jsonb not null default '{}'::jsonb;
alter table discovered_system add column broken_rule int;
alter table discovered_system add column broken varchar(2000);
create index discovered_system_broken on discovered_system (system_type_id, system_name) where broken is not null;

-- The census of each type, written with the discovered systems: per distinct mix how many systems run it and how many
-- of those break a rule, so that GET /qawk/v1/systemtypes/{id}/versions reads a handful of rows, not 25,000.
create table discovered_mix (
    system_type_id bigint not null references system_type (id) on delete cascade,
    versions       jsonb  not null,
    systems        int    not null,
    broken         int    not null
);
create index discovered_mix_by_type on discovered_mix (system_type_id);
