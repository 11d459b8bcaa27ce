-- Run events take their ids 50 at a time (Hibernate's pooled sequence), so an engine pass writes its events in
-- batches; ids stay unique and rise, the timeline orders by time first.
alter sequence run_event_id_seq increment by 50;

-- The systems listing counts a type's problem devices on every request: without this it scans every member.
create index system_member_problems on system_member (system_type_id) where problem is not null;
