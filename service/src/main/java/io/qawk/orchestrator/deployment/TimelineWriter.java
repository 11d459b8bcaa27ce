package io.qawk.orchestrator.deployment;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a transaction's timeline entries ({@code run_event}) in plain JDBC batches just before it commits, in the
 * same transaction. An engine pass writes thousands of entries and never reads them back; as entities each cost
 * Hibernate an entity entry, an insert action and a copy of its state for the rest of the transaction.
 * <p>
 * Before the batch, the session is flushed, so the runs the entries belong to are in the database (a new run and
 * its first entry come in one transaction). Ids come from the table's sequence, one {@code nextval} per entry: the
 * sequence counts in fifties, and each value is the top of a range nobody else takes. Nothing reads entries in the
 * transaction that writes them (only {@code GET …/events} reads them).
 */
@Singleton
@io.quarkus.arc.Unremovable // looked up by RunEvent.record, a static method of an entity
public class TimelineWriter {

    static final String INSERT = "insert into run_event (id, run_id, at, type, message, data, actor)"
            + " values (nextval('run_event_id_seq'), ?, ?, ?, ?, cast(? as jsonb), ?)";
    static final int BATCH = 500;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    EntityManager em;

    @Inject
    DataSource dataSource;

    private record Row(long runId, Instant at, RunEventKind kind, String message, String data, String actor) {
    }

    /** Adds an entry to the current transaction's batch (there must be one). */
    void add(long runId, Instant at, RunEventKind kind, String message, String data, String actor) {
        Batch batch = (Batch) transactions.getResource(Batch.class);
        if (batch == null) {
            batch = new Batch();
            transactions.putResource(Batch.class, batch);
            transactions.registerInterposedSynchronization(batch);
            // the session and the connection join the transaction now: the batch flushes the one and writes through
            // the other while the transaction completes, when nothing may join it any more
            em.getFlushMode();
            try (Connection joined = dataSource.getConnection()) {
                joined.isReadOnly();
            } catch (SQLException e) {
                throw new IllegalStateException("no database connection for the run's timeline: " + e.getMessage(), e);
            }
        }
        batch.rows.add(new Row(runId, at, kind, message, data, actor));
    }

    private final class Batch implements Synchronization {

        final List<Row> rows = new ArrayList<>();

        @Override
        public void beforeCompletion() {
            if (rows.isEmpty()) {
                return;
            }
            em.flush();
            try (Connection connection = dataSource.getConnection(); // the transaction's own connection
                 PreparedStatement insert = connection.prepareStatement(INSERT)) {
                int pending = 0;
                for (Row r : rows) {
                    insert.setLong(1, r.runId());
                    insert.setTimestamp(2, Timestamp.from(r.at()));
                    insert.setString(3, r.kind().name());
                    insert.setString(4, r.message());
                    if (r.data() == null) {
                        insert.setNull(5, Types.VARCHAR);
                    } else {
                        insert.setString(5, r.data());
                    }
                    insert.setString(6, r.actor());
                    insert.addBatch();
                    if (++pending == BATCH) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    insert.executeBatch();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("the run's timeline could not be written: " + e.getMessage(), e);
            }
            rows.clear();
        }

        @Override
        public void afterCompletion(int status) {
            rows.clear();
        }
    }
}
