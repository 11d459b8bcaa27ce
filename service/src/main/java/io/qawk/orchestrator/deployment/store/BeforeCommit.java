package io.qawk.orchestrator.deployment.store;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Rows a transaction writes in plain JDBC just before it commits, in the same transaction and on its connection: the
 * engine's timeline entries ({@link TimelineWriter}) and run devices ({@link RunDeviceWriter}), thousands per pass,
 * which as entities cost Hibernate an entity entry, a copy of their state and a dirty check each.
 * <p>
 * Before a batch is written the session is flushed, so the runs its rows belong to are in the database. If a batch
 * cannot be written, the transaction does not commit; if the transaction rolls back, nothing of it is written.
 */
@Singleton
public class BeforeCommit {

    /** What a transaction has gathered to write. */
    interface Batch {

        boolean isEmpty();

        /** Writes the rows on the transaction's connection. */
        void write(Connection connection) throws SQLException;

        /** Forgets the rows (written, or their transaction ended). */
        void clear();

        /** What the rows are, for the error when they cannot be written: {@code the run's timeline}. */
        String what();
    }

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    EntityManager em;

    @Inject
    DataSource dataSource;

    /** The current transaction's batch of this kind (there must be a transaction), made and registered on first use. */
    <B extends Batch> B batch(Class<B> kind, Supplier<B> make) {
        B batch = kind.cast(transactions.getResource(kind));
        if (batch != null) {
            return batch;
        }
        B made = make.get();
        transactions.putResource(kind, made);
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                if (made.isEmpty()) {
                    return;
                }
                em.flush();
                try (Connection connection = dataSource.getConnection()) { // the transaction's own connection
                    made.write(connection);
                } catch (SQLException e) {
                    throw new IllegalStateException(made.what() + " could not be written: " + e.getMessage(), e);
                }
                made.clear();
            }

            @Override
            public void afterCompletion(int status) {
                made.clear();
            }
        });
        // the session and the connection join the transaction now: the batch flushes the one and writes through the
        // other while the transaction completes, when nothing may join it any more
        em.getFlushMode();
        try (Connection joined = dataSource.getConnection()) {
            joined.isReadOnly();
        } catch (SQLException e) {
            throw new IllegalStateException("no database connection for " + made.what() + ": " + e.getMessage(), e);
        }
        return made;
    }

    /** The transaction's batch of this kind if it has one, else null. */
    <B extends Batch> B existing(Class<B> kind) {
        return kind.cast(transactions.getResource(kind));
    }
}
