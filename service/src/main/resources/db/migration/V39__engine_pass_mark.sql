-- Issue 57: how Qawk knows its records went backwards under a running process. Every engine pass counts itself here
-- first, in a commit of its own; the process remembers the count it wrote. A count lower than that at the next pass
-- means commits were lost (a restore, a standby promoted). Only passes write it, so nothing else can make up the loss
-- before the next pass looks (the newest timeline id could: other writers and a restored sequence hand out ids
-- again). Expand only: a release that does not know the table ignores it.
create table engine_pass_mark (
    id     smallint primary key check (id = 1),
    passes bigint   not null
);
insert into engine_pass_mark (id, passes) values (1, 0);
