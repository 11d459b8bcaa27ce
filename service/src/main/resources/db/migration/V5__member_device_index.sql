-- Deleting vanished devices cascades to system_member; without this index each deleted device scanned the table.
create index system_member_by_device on system_member (controller_id);
