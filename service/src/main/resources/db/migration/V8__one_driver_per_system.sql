-- One system, one driver: a system (of a system type) has at most one run under way across all deployments.
-- Postgres is the referee, so the rule holds across replicas: the run that would be the second one under way fails
-- to commit, and the engine leaves it pending ("waiting for deployment … to finish with this system").
alter table system_run add column system_type_id bigint;
update system_run r set system_type_id = m.system_type_id
  from system_deployment d join manifest m on m.id = d.manifest_id
 where d.id = r.deployment_id;
alter table system_run alter column system_type_id set not null;

create unique index system_run_one_driver on system_run (system_type_id, system_name)
 where state in ('RUNNING', 'ROLLING_BACK') or (state = 'SUCCEEDED' and rollback_cause = 'MANUAL');

-- Who drives a device now: the engine asks by device, so that a device in two system types waits too.
create index run_device_by_controller on run_device (controller_id);
