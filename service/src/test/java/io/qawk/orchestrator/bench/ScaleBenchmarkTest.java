package io.qawk.orchestrator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.inventory.InventorySync;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 8's scale benchmark at full size (default 100,000 targets / 25,000 systems; {@code -Dqawk.bench.*} to
 * change): run with {@code ./mvnw -Pbenchmark test}. Writes {@code target/benchmark/results.md}. Asserts nothing
 * about the goals: the table says which are met.
 */
@Tag("benchmark")
@QuarkusTest
@TestProfile(BenchProfile.class)
class ScaleBenchmarkTest {

    @Inject
    InventorySync sync;

    @Inject
    DeploymentEngine engine;

    @Inject
    DataSource dataSource;

    @TestHTTPResource("/")
    URL app;

    @Test
    void scaleBenchmark() {
        ScaleBenchmark.Result result = new ScaleBenchmark(ScaleHawkbitResource.current(), sync, engine, dataSource, app,
                ScaleBenchmark.Sizes.fromSystemProperties()).run();
        assertThat(result.table()).exists();
    }
}
