package io.qawk.orchestrator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.guard.GuardPass;
import io.qawk.orchestrator.inventory.InventorySync;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 40's guard at scale ({@link GuardBenchmark}): 1,000 open rollouts and 1,000 auto-assigning filters over the
 * scale fleet (default 25,000 systems of 4 devices and 2,000 devices in no system; {@code -Dqawk.bench.guard.*} to
 * change), after the first inventory sync. Run with {@code ./mvnw -Pbenchmark test -Dtest=GuardBenchmarkTest}; the
 * rows go to {@code target/benchmark/results.md}. Fails when a pass asks more target queries than its bound: one per
 * rollout/filter at first, none when nothing changed, one per changed rollout/filter.
 */
@Tag("benchmark")
@QuarkusTest
@TestProfile(BenchProfile.Guard.class)
class GuardBenchmarkTest {

    @Inject
    InventorySync sync;

    @Inject
    GuardPass guard;

    @Test
    void theGuardsCostAtAThousandRolloutsAndFilters() {
        GuardBenchmark.Sizes sizes = GuardBenchmark.Sizes.fromSystemProperties();
        Duration firstSync = GuardBenchmark.fleetAndFirstSync(ScaleHawkbitResource.current(), sync, sizes);
        GuardBenchmark.Result g = new GuardBenchmark(ScaleHawkbitResource.current(), guard, sizes).run(false,
                String.format("%,d targets in %,d systems of 4 devices, first inventory sync %s", sizes.systems() * 4,
                        sizes.systems(), ScaleBenchmark.seconds(firstSync)));

        assertThat(g.first().report().error()).isNull();
        assertThat(g.first().targetQueries()).as("one target query per rollout/filter")
                .isEqualTo(g.expectedFirstQueries());
        assertThat(g.unchanged()).isNotEmpty().allSatisfy(p -> assertThat(p.targetQueries())
                .as("nothing changed: no target query").isZero());
        assertThat(g.changed().targetQueries()).as("one per changed rollout/filter").isEqualTo(g.expectedChanged());
        assertThat(g.table()).exists();
    }
}
