-- POST /inventory/sync answers 202 when its pass outlasts half the HTTP idle timeout, and the pass goes on; whoever
-- asked reads GET /inventory to learn how it ended. last_error alone cannot say whether the pass that failed is the
-- one asked for, so a failure is dated too.
alter table inventory_sync_state add column last_failed_at timestamptz;
