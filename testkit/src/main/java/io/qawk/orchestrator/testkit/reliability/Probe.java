package io.qawk.orchestrator.testkit.reliability;

import org.awaitility.core.ConditionTimeoutException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;

/**
 * Read-only looks into the service's database, used only to choose the moment of a kill (e.g. "an assignment intent
 * is stored and hawkBit's answer is not") and to see which replica holds a deployment's engine lock. Everything the
 * tests assert on comes from the REST API and hawkBit.
 */
public final class Probe implements AutoCloseable {

    /** First key of the engine's advisory locks (EngineLock.NAMESPACE). */
    static final int ENGINE_LOCK_NAMESPACE = 0x51415757;

    private final Connection connection;

    public Probe(ReliabilityPostgres pg) {
        try {
            this.connection = pg.connect();
            this.connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Devices of the deployment whose intent is stored but not confirmed, in the given states. */
    public synchronized int intents(int deploymentId, List<String> states) {
        String in = String.join(",", states.stream().map(s -> "'" + s + "'").toList());
        return count("select count(*) from run_device d join system_run r on r.id = d.run_id where r.deployment_id = "
                + deploymentId + " and d.state in (" + in + ")");
    }

    /** Controller ids of the deployment's devices in {@code state}. */
    public synchronized List<String> devicesIn(int deploymentId, String state) {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("select d.controller_id from run_device d join system_run r "
                + "on r.id = d.run_id where r.deployment_id = ? and d.state = ?")) {
            ps.setInt(1, deploymentId);
            ps.setString(2, state);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** Waits (polling every 5 ms) for an intent in one of {@code states}; false when none came within {@code max}. */
    public boolean awaitIntent(int deploymentId, List<String> states, Duration max) {
        try {
            await().atMost(max).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .until(() -> intents(deploymentId, states) > 0);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** The application name of the connection holding the deployment's engine lock, or null when nobody holds it. */
    public synchronized String lockHolder(int deploymentId) {
        try (PreparedStatement ps = connection.prepareStatement("select a.application_name from pg_locks l "
                + "join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.granted "
                + "and l.classid = ? and l.objid = ? and l.objsubid = 2")) {
            ps.setLong(1, Integer.toUnsignedLong(ENGINE_LOCK_NAMESPACE));
            ps.setLong(2, deploymentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Count of rows per device state, for the log. */
    public synchronized Map<String, Integer> deviceStates(int deploymentId) {
        Map<String, Integer> out = new TreeMap<>();
        try (PreparedStatement ps = connection.prepareStatement("select d.state, count(*) from run_device d join system_run r "
                + "on r.id = d.run_id where r.deployment_id = ? group by d.state")) {
            ps.setInt(1, deploymentId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private int count(String sql) {
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
