package io.qawk.orchestrator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.inventory.InventorySync;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The scale benchmark, small (2,000 targets / 500 systems, one run), in the normal test run so that it cannot rot.
 * Checks that the table is produced and the basics are right; no timing goal is asserted.
 */
@QuarkusTest
@TestProfile(BenchProfile.Smoke.class)
class ScaleBenchmarkSmokeTest {

    @Inject
    InventorySync sync;

    @Inject
    DeploymentEngine engine;

    @Inject
    DataSource dataSource;

    @TestHTTPResource("/")
    URL app;

    @Test
    void theBenchmarkRunsSmallAndItsFiguresAreSane() throws Exception {
        ScaleBenchmark.Result result = new ScaleBenchmark(ScaleHawkbitResource.current(), sync, engine, dataSource, app,
                ScaleBenchmark.Sizes.smoke()).run();

        assertThat(result.systemsFound()).as("systems found").isEqualTo(result.expectedSystems());
        assertThat(result.movedVisible()).as("a device that changed its system key moves").isTrue();
        assertThat(result.firstOrderAssigned()).as("the deployment's first order is assigned").isTrue();
        assertThat(result.table()).exists();
        String table = Files.readString(result.table());
        assertThat(table).contains("| what | goal | measured | met? |", "first inventory sync", "sync when nothing changed",
                "a device that changed its system key", "engine pass", "hawkBit requests per pass",
                "order k's last device finished", "memory of this test JVM", "GET …/systems?limit=100");
        assertThat(result.rows()).isGreaterThanOrEqualTo(9);
    }
}
