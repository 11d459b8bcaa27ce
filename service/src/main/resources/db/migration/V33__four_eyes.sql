-- Four eyes (issue 42): a system type or a channel may require that a deployment of it be approved by an approver
-- other than its creator before it can start.
alter table system_type add column approval_required boolean not null default false;
alter table fleet add column approval_required boolean not null default false;

-- The rule a deployment was created (or last edited) under, in words; null: no approval needed. Who approved or
-- rejected it, when, with what comment; an edit after the approval clears it.
alter table system_deployment add column approval_rule text;
alter table system_deployment add column approved_by text;
alter table system_deployment add column approved_at timestamptz;
alter table system_deployment add column rejected_by text;
alter table system_deployment add column rejected_at timestamptz;
alter table system_deployment add column approval_comment text;

-- The deployment's own timeline (before it has any runs): approvals, rejections, approvals taken back.
create table deployment_event (
    id            bigserial primary key,
    deployment_id bigint not null references system_deployment (id) on delete cascade,
    at            timestamptz not null,
    type          text not null,
    actor         text,
    message       text not null,
    comment       text
);
create index deployment_event_by_deployment on deployment_event (deployment_id, id);

-- AWAITING_APPROVAL is 17 characters long.
alter table system_deployment alter column phase type varchar(32);
