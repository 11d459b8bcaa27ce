package io.qawk.orchestrator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
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
import java.util.stream.StreamSupport;

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
        prometheus.awaitScraped(Instant.now(), WITHIN);

        // 4 systems updated with 120 reads (3 refused) and 8 writes
        targets.increment(117);
        refused.increment(3);
        assign.increment(8);
        for (int i = 0; i < 4; i++) {
            succeeded.record(Duration.ofSeconds(40));
        }
        prometheus.awaitScraped(Instant.now(), WITHIN);

        List<String> byFamily = panelQueries("hawkBit requests by kind and family");
        List<String> perSystem = panelQueries("hawkBit requests per system updated");
        assertThat(byFamily).hasSize(2);
        assertThat(perSystem).hasSize(1);
        Map<String, Double> rates = new HashMap<>();
        Map<String, Double> per = new HashMap<>();
        await().atMost(WITHIN).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            rates.putAll(query(byFamily.get(0), "family"));
            per.putAll(query(perSystem.get(0), "kind"));
            assertThat(rates).containsOnlyKeys("targets", "distributionsets");
            assertThat(per).containsOnlyKeys("read", "write");
            assertThat(query(byFamily.get(1), "kind")).containsOnlyKeys("read");
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

    /** A panel's queries as Grafana sends them with every namespace and a 1-minute rate interval. */
    static List<String> panelQueries(String title) throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(ChartFiles.chart().resolve(DASHBOARD)));
        for (JsonNode p : dashboard.path("panels")) {
            if (title.equals(p.path("title").asText())) {
                return StreamSupport.stream(p.path("targets").spliterator(), false)
                        .map(t -> t.path("expr").asText().replace("$namespace", ".*")
                                .replace("$__rate_interval", "1m"))
                        .toList();
            }
        }
        throw new AssertionError("no panel '" + title + "' in " + DASHBOARD);
    }

    /** An instant query: each series' value by its label {@code by}. */
    static Map<String, Double> query(String promql, String by) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(prometheus.url()
                        + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, Double> out = new HashMap<>();
        for (JsonNode s : new ObjectMapper().readTree(r.body()).path("data").path("result")) {
            double v = Double.parseDouble(s.path("value").path(1).asText());
            if (!Double.isNaN(v)) {
                out.put(s.path("metric").path(by).asText(), v);
            }
        }
        return out;
    }
}
