package io.qawk.orchestrator.common;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Exactly one replica drives a deployment (or a channel release) at a time, through a Postgres session advisory lock held on its own
 * connection for the whole pass. A replica that dies loses its connection, and with it the lock.
 */
@ApplicationScoped
public class EngineLock {

    private static final Logger LOG = Logger.getLogger(EngineLock.class);
    /** Namespace of Qawk's advisory locks (first key of the two-int form). */
    public static final int NAMESPACE = 0x51415757;
    /** Namespace of the channel release locks. */
    public static final int RELEASES = 0x51415758;

    @Inject
    DataSource dataSource;

    /** The lock for {@code key}, or empty when another replica (or pass) holds it. Close it to release. */
    public Optional<Held> tryLock(int key) {
        return tryLock(NAMESPACE, key);
    }

    /** The lock {@code (namespace, key)}, or empty when it is held elsewhere. */
    public Optional<Held> tryLock(int namespace, int key) {
        Connection c = null;
        try {
            c = dataSource.getConnection();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("select pg_try_advisory_lock(?, ?)")) {
                ps.setInt(1, namespace);
                ps.setInt(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        return Optional.of(new Held(c, namespace, key));
                    }
                }
            }
            c.close();
            return Optional.empty();
        } catch (SQLException e) {
            closeQuietly(c);
            LOG.warnf("Could not take the engine lock %d: %s", key, e.getMessage());
            return Optional.empty();
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing more to do
            }
        }
    }

    /** A held lock; closing releases it. */
    public static final class Held implements AutoCloseable {
        private final Connection connection;
        private final int namespace;
        private final int key;

        Held(Connection connection, int namespace, int key) {
            this.connection = connection;
            this.namespace = namespace;
            this.key = key;
        }

        @Override
        public void close() {
            try (PreparedStatement ps = connection.prepareStatement("select pg_advisory_unlock(?, ?)")) {
                ps.setInt(1, namespace);
                ps.setInt(2, key);
                ps.execute();
            } catch (SQLException e) {
                LOG.warnf("Could not release the engine lock %d: %s", key, e.getMessage());
            } finally {
                closeQuietly(connection);
            }
        }
    }
}
