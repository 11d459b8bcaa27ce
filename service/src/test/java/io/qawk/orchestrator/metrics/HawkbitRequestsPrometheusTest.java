package io.qawk.orchestrator.metrics;

import io.micrometer.core.instrument.Counter;
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
 * The service-health dashboard's panels "hawkBit requests by kind and family" and "hawkBit requests per system
 * updated" against a real Prometheus (the test kit's): requests counted as the hawkBit client counts them
 * ({@code qawk_hawkbit_http_requests_total}) and systems updated as the engine counts them (runs that succeeded,
 * {@code qawk_run_duration_seconds_count}) are scraped every second, and the panels' own queries, read from the
 * chart's dashboard file, give the figures.
 */
class HawkbitRequestsPrometheusTest {

    static final Duration WITHIN = Duration.ofSeconds(30);
    static final String DASHBOARD = "dashboards/service-health.json";

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
    void theDashboardGivesRequestsByKindAndFamilyAndPerSystemUpdated() throws Exception {
        EngineMetrics metrics = new EngineMetrics();
        metrics.registry = registry;
        metrics.clock = Clock.systemUTC();
        metrics.register();
        Counter targets = requests("read", "GET", "targets", "2xx");
        Counter refused = requests("read", "GET", "targets", "429");
        Counter assign = requests("write", "POST", "distributionsets", "2xx");
        var succeeded = registry.find("qawk.run.duration").tag("outcome", "succeeded").timer();
        assertThat(succeeded).as("the engine's timer of runs that succeeded").isNotNull();
        prometheus.awaitScraped(WITHIN);

        // 4 systems updated with 120 reads (3 refused) and 8 writes
        targets.increment(117);
        refused.increment(3);
        assign.increment(8);
        for (int i = 0; i < 4; i++) {
            succeeded.record(Duration.ofSeconds(40));
        }
        prometheus.awaitScraped(WITHIN);

        List<String> byFamily = ScrapedPrometheus.panelQueries(DASHBOARD, "hawkBit requests by kind and family");
        List<String> perSystem = ScrapedPrometheus.panelQueries(DASHBOARD, "hawkBit requests per system updated");
        assertThat(byFamily).hasSize(2);
        assertThat(perSystem).hasSize(1);
        Map<String, Double> rates = new HashMap<>();
        Map<String, Double> per = new HashMap<>();
        await().atMost(WITHIN).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            rates.putAll(prometheus.query(byFamily.get(0), "family"));
            per.putAll(prometheus.query(perSystem.get(0), "kind"));
            assertThat(rates).containsOnlyKeys("targets", "distributionsets");
            assertThat(per).containsOnlyKeys("read", "write");
            assertThat(prometheus.query(byFamily.get(1), "kind")).containsOnlyKeys("read");
        });
        assertThat(rates.get("targets")).as("reads a second").isGreaterThan(rates.get("distributionsets"));
        // increase() over 1 h extrapolates a little within the scraped span; 120/4 = 30 and 8/4 = 2
        assertThat(per.get("read")).as("reads per system updated").isBetween(25.0, 36.0);
        assertThat(per.get("write")).as("writes per system updated").isBetween(1.6, 2.4);
    }

    private static Counter requests(String kind, String method, String family, String outcome) {
        // the hawkBit client's counter, by its name and labels (HawkbitClient.COUNTED)
        return Counter.builder("qawk.hawkbit.http.requests").tag("kind", kind).tag("method", method)
                .tag("family", family).tag("outcome", outcome).register(registry);
    }
}
