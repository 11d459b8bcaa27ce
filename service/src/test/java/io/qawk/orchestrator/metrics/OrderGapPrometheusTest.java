package io.qawk.orchestrator.metrics;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.qawk.orchestrator.deployment.engine.EngineMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code qawk_order_gap_seconds} and the deployments dashboard's panel "Gap between orders by system type" against a
 * real Prometheus (Debian's, from the test kit): the engine's metrics class records gaps into a Prometheus registry
 * served on 127.0.0.1, Prometheus scrapes it every second, and the panel's own queries, read from the chart's
 * dashboard file, give each system type's p50 and p99 in the buckets the gaps fell in.
 */
class OrderGapPrometheusTest {

    static final Duration WITHIN = Duration.ofSeconds(30);
    static final String PANEL = "Gap between orders by system type";

    static ScrapedPrometheus prometheus;
    static PrometheusMeterRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        prometheus = ScrapedPrometheus.start();
        registry = prometheus.registry;
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void theDashboardsGapPanelGivesEachSystemTypesP50AndP99FromTheEnginesHistogram() throws Exception {
        EngineMetrics metrics = new EngineMetrics();
        metrics.registry = registry;
        metrics.clock = Clock.systemUTC();
        metrics.register();
        // a first sample of each series, so that rate() sees what came after
        metrics.orderGap("lanes", Duration.ofMillis(400));
        metrics.orderGap("kiosks", Duration.ofSeconds(20));
        prometheus.awaitScraped(WITHIN);

        // lanes: 98 gaps of 0.4 s and 2 of 2.5 s; kiosks: 10 of 20 s; a negative gap (clocks apart) counts as zero
        for (int i = 0; i < 98; i++) {
            metrics.orderGap("lanes", Duration.ofMillis(400));
        }
        metrics.orderGap("lanes", Duration.ofMillis(2500));
        metrics.orderGap("lanes", Duration.ofMillis(2500));
        for (int i = 0; i < 10; i++) {
            metrics.orderGap("kiosks", Duration.ofSeconds(20));
        }
        metrics.orderGap("kiosks", Duration.ofSeconds(-3));
        assertThat(registry.scrape()).contains("qawk_order_gap_seconds_bucket{system_type=\"lanes\",le=\"0.5\",} 99.0")
                .contains("qawk_order_gap_seconds_count{system_type=\"kiosks\",} 12.0");
        prometheus.awaitScraped(WITHIN);

        List<String> queries = ScrapedPrometheus.panelQueries("dashboards/deployments.json", PANEL);
        assertThat(queries).hasSize(2);
        Map<String, Double> p50 = new HashMap<>();
        Map<String, Double> p99 = new HashMap<>();
        await().atMost(WITHIN).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            p50.putAll(prometheus.query(queries.get(0), "system_type"));
            p99.putAll(prometheus.query(queries.get(1), "system_type"));
            assertThat(p50).containsOnlyKeys("lanes", "kiosks");
            assertThat(p99).containsOnlyKeys("lanes", "kiosks");
        });
        assertThat(p50.get("lanes")).as("p50 of lanes, in the bucket of 0.4 s").isBetween(0.25, 0.5);
        assertThat(p99.get("lanes")).as("p99 of lanes, in the bucket of 2.5 s").isBetween(2.0, 3.0);
        assertThat(p50.get("kiosks")).as("p50 of kiosks, in the bucket of 20 s").isBetween(10.0, 30.0);
        assertThat(p99.get("kiosks")).isBetween(10.0, 30.0);
    }
}
