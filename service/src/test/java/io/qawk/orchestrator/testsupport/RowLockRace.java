package io.qawk.orchestrator.testsupport;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.restassured.response.Response;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two writers racing for a row, in the one order that matters: a transaction of the application's own code holds the
 * rows it wrote (not committed), a request is made meanwhile, and the transaction commits only once the request waits
 * to lock a row of the same table. What a replica's pass and an operator's command do to each other, made certain.
 */
public final class RowLockRace {

    static final Duration WITHIN = Duration.ofSeconds(30);

    private RowLockRace() {
    }

    /**
     * Runs {@code write} in a transaction of its own (flush inside it what must be written before the commit), starts
     * {@code request}, commits once the request waits to lock a row of {@code table}, and returns the request's answer.
     */
    public static Response whileHeld(DataSource dataSource, Runnable write, String table, Supplier<Response> request)
            throws Exception {
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch requested = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew().run(() -> {
            write.run();
            written.countDown();
            try {
                assertThat(requested.await(WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            await().atMost(WITHIN).until(() -> waitingToLock(dataSource, table) > 0);
        }));
        assertThat(written.await(WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Response> answer = CompletableFuture.supplyAsync(request);
        requested.countDown();
        holder.get(WITHIN.toSeconds() * 2, TimeUnit.SECONDS);
        return answer.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
    }

    /**
     * Sessions of this database waiting for a row lock on {@code table} that another holds: the request's own locking
     * read, not the engine's advisory lock or some other writer's wait, which would let the held writer commit early.
     */
    static int waitingToLock(DataSource dataSource, String table) throws SQLException {
        try (Connection c = dataSource.getConnection();
             var s = c.prepareStatement("select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                     + " and wait_event <> 'advisory' and datname = current_database()"
                     + " and query ilike ? and query ilike '% for %update%'")) {
            s.setString(1, "%" + table + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
