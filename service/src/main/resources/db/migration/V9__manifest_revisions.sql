-- What a deployment runs: the manifest's content frozen when the deployment started, numbered per manifest. Editing
-- or re-importing a manifest changes what later deployments freeze, never what a started one runs (take again,
-- systems that join, promotion).
create table manifest_revision (
    id             bigserial primary key,
    manifest_id    bigint       not null references manifest (id) on delete cascade,
    revision       int          not null,
    name           varchar(128) not null,
    system_type_id bigint       not null,
    created_at     timestamptz  not null,
    constraint manifest_revision_unique unique (manifest_id, revision)
);

create table manifest_revision_component (
    revision_id          bigint       not null references manifest_revision (id) on delete cascade,
    position             int          not null,
    component_type       varchar(128) not null,
    distribution_set_id  bigint       not null,
    distribution_set     varchar(300) not null,
    update_order         int          not null,
    primary key (revision_id, position)
);

alter table system_deployment add column manifest_revision_id bigint references manifest_revision (id);

-- Deployments started before revisions existed run the manifest as it is now: that becomes its revision 1.
insert into manifest_revision (manifest_id, revision, name, system_type_id, created_at)
select m.id, 1, m.name, m.system_type_id, now() from manifest m
where exists (select 1 from system_deployment d where d.manifest_id = m.id and d.started_at is not null);

insert into manifest_revision_component (revision_id, position, component_type, distribution_set_id, distribution_set,
                                         update_order)
select r.id, c.position, c.component_type, c.distribution_set_id, c.distribution_set, c.update_order
from manifest_revision r join manifest_component c on c.manifest_id = r.manifest_id;

update system_deployment d set manifest_revision_id = r.id
from manifest_revision r where r.manifest_id = d.manifest_id and d.started_at is not null;
