package io.qawk.orchestrator.inventory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

/** How the inventory syncs have gone, kept in Postgres so every replica and the API see the same. */
@ApplicationScoped
public class SyncState {

    @Inject
    DataSource dataSource;

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void started(Instant at) {
        update("update inventory_sync_state set last_started_at = ? where id = 1", Timestamp.from(at));
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void completed(Instant at, int devices, int requests, Duration took) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "update inventory_sync_state set last_completed_at = ?, last_error = null, devices = ?, requests = ?,"
                        + " duration_ms = ? where id = 1")) {
            ps.setTimestamp(1, Timestamp.from(at));
            ps.setInt(2, devices);
            ps.setInt(3, requests);
            ps.setLong(4, took.toMillis());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    void failed(Instant at, String error) {
        String text = error == null ? "unknown error" : error.length() > 1900 ? error.substring(0, 1900) : error;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "update inventory_sync_state set last_error = ?, last_failed_at = ? where id = 1")) {
            ps.setString(1, text);
            ps.setTimestamp(2, Timestamp.from(at));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Transactional
    public Snapshot read() {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select last_started_at, last_completed_at, last_failed_at, last_error, devices, requests, duration_ms"
                        + " from inventory_sync_state where id = 1"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Snapshot(InventoryStore.instant(rs.getTimestamp(1)), InventoryStore.instant(rs.getTimestamp(2)),
                    InventoryStore.instant(rs.getTimestamp(3)), rs.getString(4), rs.getInt(5), rs.getInt(6),
                    rs.getLong(7));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void update(String sql, Object value) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, value);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The last sync as the API shows it: when the last pass started, when one last completed (with what it found:
     * devices, requests, duration) and when one last failed (with {@code lastError}). A pass started at or after some
     * moment has ended when {@code lastStartedAt} is at or after it and a completion or failure is too.
     */
    public record Snapshot(Instant lastStartedAt, Instant lastCompletedAt, Instant lastFailedAt, String lastError,
                           int devices, int hawkbitRequests, long durationMillis) {
    }
}
