-- A channel's release starts a deployment that follows the channel: it may be empty (its systems join later) and
-- says "waiting for systems to join"; a deployment made by hand may not start with nothing in scope (issue 36).
-- Only the current release's deployment is followed: a superseded one is not.
alter table system_deployment add column follows_channel boolean not null default false;

update system_deployment set follows_channel = true
 where id in (select deployment_id from fleet_release where state = 'CURRENT' and deployment_id is not null);
