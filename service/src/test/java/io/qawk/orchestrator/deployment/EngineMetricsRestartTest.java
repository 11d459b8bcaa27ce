package io.qawk.orchestrator.deployment;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static io.qawk.orchestrator.testsupport.QuarkusRegistries.started;
import static io.qawk.orchestrator.testsupport.QuarkusRegistries.stop;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import io.qawk.orchestrator.deployment.engine.EngineMetrics;

/**
 * The engine's meters when one JVM starts the application again, as the tests do when surefire runs them in two
 * JVMs (Quarkus starts the application for every test class and keeps Micrometer's global composite registry, which
 * outside dev mode keeps its meters): the new application's scrape reads its own engine, not the stopped one's.
 * The composite and its registries are what Quarkus wires ({@link io.qawk.orchestrator.testsupport.QuarkusRegistries}).
 */
class EngineMetricsRestartTest {

    static final Instant T0 = Instant.parse("2026-12-02T04:00:00Z");
    static final String AGE = "qawk.engine.last.pass.age";

    @Test
    void afterARestartTheLastPassAgeIsTheNewEnginesNotTheStoppedOnes() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        SimpleMeterRegistry firstScrape = started(global);
        EngineMetrics stopped = engine(global, T0);
        stopped.clock = Clock.fixed(T0.plusSeconds(1000), ZoneOffset.UTC);
        assertThat(firstScrape.get(AGE).gauge().value()).isEqualTo(1000);

        stop(global, firstScrape);
        SimpleMeterRegistry scrape = started(global);
        EngineMetrics current = engine(global, T0.plusSeconds(1000));

        assertThat(scrape.find(AGE).gauges()).hasSize(1);
        assertThat(scrape.get(AGE).gauge().value()).as("the new engine started just now").isZero();
        current.clock = Clock.fixed(T0.plusSeconds(1007), ZoneOffset.UTC);
        assertThat(scrape.get(AGE).gauge().value()).isEqualTo(7);
        // counters hold nothing of the application: the surviving ones count into the new registry anyway
        current.engineError();
        assertThat(scrape.get("qawk.engine.errors").tag("kind", "internal").counter().count()).isEqualTo(1);
    }

    @Test
    void aStoppedEngineTakesItsGaugeOutOfTheRegistry() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        SimpleMeterRegistry scrape = started(global);
        EngineMetrics engine = engine(global, T0);
        assertThat(global.find(AGE).gauges()).hasSize(1);

        engine.unregister();

        assertThat(global.find(AGE).gauges()).isEmpty();
        assertThat(scrape.find(AGE).gauges()).isEmpty();
    }

    private static EngineMetrics engine(CompositeMeterRegistry global, Instant now) {
        EngineMetrics m = new EngineMetrics();
        m.registry = global;
        m.clock = Clock.fixed(now, ZoneOffset.UTC);
        m.register();
        return m;
    }
}
