-- The timeline's entries are typed (RunEventKind, TimelineEvent): each keeps its kind in "type" as before, and now
-- its fields as JSON, so nobody has to read them back out of the words.
alter table run_event add column data jsonb;

-- Kinds the old text matching got wrong: a device that left its system or was taken over by someone else was
-- filed as ROLLBACK_STARTED, and the start of a rollback after a failure as DEVICE_FAILED.
update run_event set type = 'DEVICE_LEFT_SYSTEM'
    where type = 'ROLLBACK_STARTED' and message like 'device % left the system during the update';
update run_event set type = 'DEVICE_TAKEN_OVER'
    where type = 'ROLLBACK_STARTED' and message like 'device % in hawkBit by someone else%';
update run_event set type = 'ROLLBACK_STARTED'
    where type = 'DEVICE_FAILED' and message like '% device(s) failed at order %: the whole system goes back';
