package io.qawk.orchestrator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.qawk.orchestrator.channel.config.ChartFiles;
import io.qawk.orchestrator.testkit.prometheus.PrometheusServer;

import java.io.IOException;
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
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the dashboard tests share: a Prometheus registry served on 127.0.0.1 and scraped every second by a real
 * Prometheus (Debian's, from the test kit), a chart dashboard's panel queries as Grafana sends them, and instant
 * queries of their figures.
 */
final class ScrapedPrometheus implements AutoCloseable {

    final PrometheusMeterRegistry registry;
    private final HttpServer endpoint;
    private final PrometheusServer prometheus;

    private ScrapedPrometheus(PrometheusMeterRegistry registry, HttpServer endpoint, PrometheusServer prometheus) {
        this.registry = registry;
        this.endpoint = endpoint;
        this.prometheus = prometheus;
    }

    static ScrapedPrometheus start() throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HttpServer endpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        endpoint.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        endpoint.start();
        try {
            return new ScrapedPrometheus(registry, endpoint,
                    PrometheusServer.start("127.0.0.1:" + endpoint.getAddress().getPort()));
        } catch (RuntimeException e) {
            endpoint.stop(0);
            throw e;
        }
    }

    /** Waits until Prometheus has scraped the registry after now. */
    void awaitScraped(Duration within) {
        prometheus.awaitScraped(Instant.now(), within);
    }

    /** A panel's queries as Grafana sends them with every namespace and a 1-minute rate interval. */
    static List<String> panelQueries(String dashboardFile, String title) throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(ChartFiles.chart().resolve(dashboardFile)));
        for (JsonNode p : dashboard.path("panels")) {
            if (title.equals(p.path("title").asText())) {
                return StreamSupport.stream(p.path("targets").spliterator(), false)
                        .map(t -> t.path("expr").asText().replace("$namespace", ".*")
                                .replace("$__rate_interval", "1m"))
                        .toList();
            }
        }
        throw new AssertionError("no panel '" + title + "' in " + dashboardFile);
    }

    /** An instant query: each series' value by its label {@code by}; series without a value are left out. */
    Map<String, Double> query(String promql, String by) throws IOException, InterruptedException {
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

    @Override
    public void close() {
        prometheus.close();
        endpoint.stop(0);
    }
}
