-- When hawkBit says a device finished its forward update (its target's installedAt in the bulk answers the engine
-- reads; the observation time when hawkBit named none): where the gap between orders starts (qawk_order_gap_seconds).
alter table run_device add column reported_at timestamptz;
