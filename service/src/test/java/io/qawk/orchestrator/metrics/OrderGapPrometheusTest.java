package io.qawk.orchestrator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.qawk.orchestrator.channel.config.ChartFiles;
import io.qawk.orchestrator.deployment.engine.EngineMetrics;
import io.qawk.orchestrator.testkit.prometheus.PrometheusServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    static PrometheusMeterRegistry registry;
    static HttpServer endpoint;
    static PrometheusServer prometheus;

    @BeforeAll
    static void start() throws Exception {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        endpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        endpoint.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        endpoint.start();
        prometheus = PrometheusServer.start("127.0.0.1:" + endpoint.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (endpoint != null) {
            endpoint.stop(0);
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
        prometheus.awaitScraped(Instant.now(), WITHIN);

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
        prometheus.awaitScraped(Instant.now(), WITHIN);

        List<String> queries = panelQueries();
        assertThat(queries).hasSize(2);
        Map<String, Double> p50 = new HashMap<>();
        Map<String, Double> p99 = new HashMap<>();
        await().atMost(WITHIN).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            p50.putAll(query(queries.get(0)));
            p99.putAll(query(queries.get(1)));
            assertThat(p50).containsOnlyKeys("lanes", "kiosks");
            assertThat(p99).containsOnlyKeys("lanes", "kiosks");
        });
        assertThat(p50.get("lanes")).as("p50 of lanes, in the bucket of 0.4 s").isBetween(0.25, 0.5);
        assertThat(p99.get("lanes")).as("p99 of lanes, in the bucket of 2.5 s").isBetween(2.0, 3.0);
        assertThat(p50.get("kiosks")).as("p50 of kiosks, in the bucket of 20 s").isBetween(10.0, 30.0);
        assertThat(p99.get("kiosks")).isBetween(10.0, 30.0);
    }

    /** The panel's queries as Grafana sends them with every namespace and a 1-minute rate interval. */
    static List<String> panelQueries() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(
                ChartFiles.chart().resolve("dashboards/deployments.json")));
        for (JsonNode p : dashboard.path("panels")) {
            if (PANEL.equals(p.path("title").asText())) {
                return java.util.stream.StreamSupport.stream(p.path("targets").spliterator(), false)
                        .map(t -> t.path("expr").asText().replace("$namespace", ".*")
                                .replace("$__rate_interval", "1m"))
                        .toList();
            }
        }
        throw new AssertionError("no panel '" + PANEL + "' in the deployments dashboard");
    }

    /** An instant query: each series' value by its {@code system_type}. */
    static Map<String, Double> query(String promql) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(prometheus.url()
                        + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, Double> out = new HashMap<>();
        for (JsonNode s : new ObjectMapper().readTree(r.body()).path("data").path("result")) {
            double v = Double.parseDouble(s.path("value").path(1).asText());
            if (!Double.isNaN(v)) {
                out.put(s.path("metric").path("system_type").asText(), v);
            }
        }
        return out;
    }
}
