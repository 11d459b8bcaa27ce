package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An inventory sync is not bound by the transaction timeout meant for requests: a first sync of 100,000 targets on a
 * busy database took longer than the default 60 s, and the transaction reaper cut it (docs/benchmarks.md, "Decisions
 * the figures made"). Here the request timeout is 2 s and the sync's refresh of the discovered systems is held up for
 * longer by a lock another connection holds; the sync must still complete.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestProfile(InventoryTransactionTimeoutTest.ShortRequestTimeout.class)
class InventoryTransactionTimeoutTest {

    /** Requests' transactions time out after 2 s; the inventory keeps its own (default) timeout. */
    public static class ShortRequestTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.transaction-manager.default-transaction-timeout", "2s");
        }
    }

    /** Longer than the request timeout above. */
    static final Duration HELD = Duration.ofSeconds(4);

    @Inject
    DataSource dataSource;

    private long waitingOnDiscoveredSystems() throws Exception {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from pg_locks l join pg_class r on r.oid = l.relation"
                     + " where r.relname = 'discovered_system' and not l.granted")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aSyncHeldUpLongerThanTheRequestTimeoutStillCompletes() throws Exception {
        CompletableFuture<Response> sync;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.execute("lock table discovered_system in access exclusive mode");
            }
            sync = CompletableFuture.supplyAsync(() -> Api.admin().post("/qawk/v1/inventory/sync"));
            // the sync has come to its refresh of the discovered systems and waits for the lock
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> waitingOnDiscoveredSystems() > 0);
            // ... and keeps waiting past the request timeout while the lock is held
            await().during(HELD).atMost(HELD.plusSeconds(5)).until(() -> !sync.isDone());
            holder.commit();
        }
        Response answer = sync.get(60, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200);
        Map<String, Object> state = Api.viewer().get("/qawk/v1/inventory").then().statusCode(200).extract().jsonPath()
                .getMap("");
        assertThat(state).as("the inventory's state after the sync").containsEntry("lastError", null);
    }
}
