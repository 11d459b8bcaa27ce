-- Issue 42, the evidence record: what a deployment did, sealed when it ended. One row per end (a deployment taken
-- again ends again, and gets a new record; the earlier one stays as it was). record: the record's canonical JSON text
-- (sorted keys, no whitespace, no digest), kept as text so that its bytes, and so its digest, never change; digest:
-- the SHA-256 of those bytes, in lower-case hex.
create table deployment_evidence (
    id             bigserial primary key,
    deployment_id  bigint       not null references system_deployment (id) on delete cascade,
    ended_at       timestamptz  not null,
    sealed_at      timestamptz  not null,
    record         text         not null,
    digest         varchar(64)  not null,
    constraint deployment_evidence_once_per_end unique (deployment_id, ended_at)
);
