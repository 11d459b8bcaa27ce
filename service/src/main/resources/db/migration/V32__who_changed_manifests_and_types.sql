-- Issue 42: manifests and system types name who last changed them (the actor the audit listing records for the edit);
-- null for those stored before, and for changes made without a person (the channels' configuration file at start).
alter table system_type add column updated_by varchar(128);
alter table manifest add column updated_by varchar(128);
