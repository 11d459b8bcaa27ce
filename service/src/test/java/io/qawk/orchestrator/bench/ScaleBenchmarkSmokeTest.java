package io.qawk.orchestrator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.guard.GuardPass;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import io.qawk.orchestrator.inventory.InventorySync;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The scale benchmark, small (800 targets / 200 systems, one run), in the normal test run so that it cannot rot.
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

    @Inject
    GuardPass guard;

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

        // the guard (issue 40) on the same fleet: 100 rollouts + 100 filters, its hawkBit requests bounded
        GuardBenchmark.Result g = new GuardBenchmark(ScaleHawkbitResource.current(), guard, GuardBenchmark.Sizes.smoke())
                .run(true, "after the smoke scale benchmark (800 targets / 200 systems)");
        assertThat(g.first().report().error()).isNull();
        assertThat(g.first().report().threats()).as("threats of the work over members").isPositive();
        assertThat(g.first().targetQueries()).as("one target query per rollout/filter")
                .isEqualTo(g.expectedFirstQueries());
        assertThat(g.unchanged()).allSatisfy(p -> assertThat(p.targetQueries()).as("nothing changed").isZero());
        assertThat(g.unchanged()).allSatisfy(p -> assertThat(p.counts().get(ScaleHawkbit.Op.ROLLOUTS)
                + p.counts().get(ScaleHawkbit.Op.TARGET_FILTERS)).as("one page of each list").isEqualTo(2));
        assertThat(g.changed().targetQueries()).isEqualTo(g.expectedChanged());
        assertThat(Files.readString(g.table())).contains("guard pass, first", "guard pass, nothing changed");
    }
}
