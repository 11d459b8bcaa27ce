-- Issue 41's process benchmark: the evidence record of a deployment of 25,000 systems, built as one JSON tree and
-- stored as one text, ran the service out of memory when it was sealed. A record is now sealed and stored system by
-- system: deployment_evidence.record holds its head (the record without "systems", canonical), and
-- deployment_evidence_system one row per system, in the record's order, each its canonical text. The digest is still
-- the SHA-256 of the whole record's canonical text: the head without its closing brace, then "systems":[ and the
-- systems' texts joined by commas, then ]} (the key "systems" sorts after every key of the head). Records sealed
-- before keep the whole text in record (systems_apart false) and are read as they were.
alter table deployment_evidence add column systems_apart boolean not null default false;

create table deployment_evidence_system (
    deployment_id  bigint       not null,
    ended_at       timestamptz  not null,
    position       int          not null,
    record         text         not null,
    primary key (deployment_id, ended_at, position),
    -- checked at commit: a seal writes its systems first and its head last, once the digest over them is known
    constraint deployment_evidence_system_of_a_record foreign key (deployment_id, ended_at)
        references deployment_evidence (deployment_id, ended_at) on delete cascade deferrable initially deferred
);
