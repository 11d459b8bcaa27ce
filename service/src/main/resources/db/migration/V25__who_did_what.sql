-- Issue 34, who did what: the person behind a deployment's start, pause and abort, and one audit listing of every
-- command the API carried out (who, when, what, on which object).
alter table system_deployment add column started_by varchar(128);
alter table system_deployment add column paused_by varchar(128);
alter table system_deployment add column aborted_by varchar(128);

create table audit_entry (
    id       bigserial primary key,
    at       timestamptz  not null,
    actor    varchar(128),
    action   varchar(64)  not null,
    target   varchar(512) not null,
    method   varchar(8)   not null,
    path     varchar(1024) not null,
    status   int          not null
);
create index audit_entry_at on audit_entry (at, id);
create index audit_entry_actor on audit_entry (actor, at, id);
