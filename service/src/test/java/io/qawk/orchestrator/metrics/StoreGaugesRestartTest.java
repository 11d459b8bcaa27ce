package io.qawk.orchestrator.metrics;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.testsupport.QuarkusRegistries;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's gauges when one JVM starts the application again (see {@code EngineMetricsRestartTest}): the new
 * application's scrape has each gauge once, read from its own bean. No database here: the counts stay 0 (a failed
 * refresh leaves them), the sync age tells the beans apart.
 */
class StoreGaugesRestartTest {

    static final Instant T0 = Instant.parse("2026-12-02T04:00:00Z");
    static final String AGE = "qawk.inventory.last.sync.age";

    @Test
    void afterARestartEveryGaugeIsReadFromTheNewBean() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        SimpleMeterRegistry firstScrape = QuarkusRegistries.started(global);
        StoreGauges stopped = gauges(global, T0);
        stopped.clock = Clock.fixed(T0.plusSeconds(600), ZoneOffset.UTC);
        assertThat(firstScrape.get(AGE).gauge().value()).isEqualTo(600);

        QuarkusRegistries.stop(global, firstScrape);
        SimpleMeterRegistry scrape = QuarkusRegistries.started(global);
        gauges(global, T0.plusSeconds(600));

        assertThat(scrape.get(AGE).gauge().value()).as("the new application started just now").isZero();
        assertThat(scrape.find("qawk.runs").gauges()).hasSize(RunState.values().length);
        assertThat(scrape.find("qawk.deployments").gauges()).hasSize(DeploymentPhase.values().length);
        assertThat(scrape.find("qawk.runs.waiting.for.window").gauges()).hasSize(1);
    }

    @Test
    void aStoppedBeanTakesItsGaugesOutOfTheRegistry() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        StoreGauges bean = gauges(global, T0);
        assertThat(global.getMeters()).isNotEmpty();

        bean.unregister();

        assertThat(global.getMeters()).isEmpty();
    }

    private static StoreGauges gauges(CompositeMeterRegistry global, Instant now) {
        StoreGauges g = new StoreGauges();
        g.registry = global;
        g.clock = Clock.fixed(now, ZoneOffset.UTC);
        g.register();
        return g;
    }
}
