-- Compatibility rules of a system type (issue 33): what its components need of each other, as operators wrote them
-- ([{"if": {...}, "then": {...}, "why": "..."}]); read and evaluated by rules/CompatibilityRules.
alter table system_type add column rules jsonb not null default '[]'::jsonb;

-- What each system runs (component -> its devices' distinct installed sets, null for a device that runs nothing) and
-- the first rule that mix breaks, both computed at every inventory sync with the rest of the discovered system.
alter table discovered_system add column versions jsonb not null default '{}'::jsonb;
alter table discovered_system add column broken_rule int;
alter table discovered_system add column broken varchar(2000);
create index discovered_system_broken on discovered_system (system_type_id, system_name) where broken is not null;
