package io.qawk.orchestrator.analysis;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.testkit.prometheus.MetricsEndpoint;
import io.qawk.orchestrator.testkit.prometheus.PrometheusServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The metric gate against a real Prometheus (Debian's, from the test kit) scraping, every second, an endpoint whose
 * values the test sets: the client, the placeholders, the judging, and Prometheus down. No Quarkus: {@link MetricGates}
 * is made by hand with the configuration it would be given.
 */
class MetricGatePrometheusTest {

    static final Duration WITHIN = Duration.ofSeconds(20);
    static final String BRIEF = "sum(rate(lane_errors_total{system=\"{system}\",centre=\"{centre}\"}[1m]))";
    static final String RATIO = "max(lane_error_ratio{system=\"{system}\",centre=\"{centre}\"})";

    static MetricsEndpoint endpoint;
    static PrometheusServer prometheus;
    static SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() {
        endpoint = MetricsEndpoint.start();
        prometheus = PrometheusServer.start(endpoint.target());
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    static PrometheusConfig config(String url, Duration timeout) {
        return new PrometheusConfig() {
            @Override
            public Optional<String> url() {
                return Optional.ofNullable(url);
            }

            @Override
            public Duration timeout() {
                return timeout;
            }
        };
    }

    static MetricGates gates(String url) {
        return new MetricGates(config(url, Duration.ofSeconds(2)), registry);
    }

    static Map<String, String> lane(String system, String centre) {
        return Map.of("system", system, "centre", centre);
    }

    /** Sets the values, then waits until Prometheus has scraped them. */
    static void scraped(Runnable set) {
        set.run();
        prometheus.awaitScraped(Instant.now(), WITHIN);
    }

    @Test
    void aValueThatTurnsBadFailsTheGateWithTheValueInTheReason() {
        MetricGates gates = gates(prometheus.url());
        MetricGate gate = new MetricGate(RATIO, "< 0.05");
        scraped(() -> endpoint.set("lane_error_ratio", lane("lane-07", "c01"), 0.01)
                .set("lane_error_ratio", lane("lane-08", "c01"), 0.9)
                .set("lane_error_ratio", lane("lane-07", "c02"), 0.8));

        Verdict good = gates.verdict(gate, "lane-07", "c01");
        assertThat(good.reason()).isEqualTo("metric gate passed: max(lane_error_ratio{system=\"lane-07\",centre=\"c01\"})"
                + " = 0.01, needs < 0.05");
        assertThat(gates.verdict(gate, "lane-08", "c01").failed()).as("another system's bad value is its own").isTrue();

        endpoint.set("lane_error_ratio", lane("lane-07", "c01"), 0.31);
        Verdict bad = await().atMost(WITHIN).until(() -> gates.verdict(gate, "lane-07", "c01"), Verdict::failed);
        assertThat(bad.value()).isEqualTo(0.31);
        assertThat(bad.reason()).isEqualTo("metric gate failed: max(lane_error_ratio{system=\"lane-07\",centre=\"c01\"})"
                + " = 0.31, needs < 0.05");
        assertThat(registry.find(MetricGates.METRIC).tag("outcome", "failed").timer()).isNotNull();
    }

    @Test
    void theIssuesQueryOverACounterFailsWhenItsRateRises() {
        MetricGates gates = gates(prometheus.url());
        MetricGate gate = new MetricGate(BRIEF, "< 0.05");
        scraped(() -> endpoint.set("lane_errors_total", lane("lane-11", "c01"), 0));
        prometheus.awaitScraped(Instant.now(), WITHIN); // two samples: a rate of 0

        Verdict quiet = await().atMost(WITHIN).until(() -> gates.verdict(gate, "lane-11", "c01"), v -> !v.inconclusive());
        assertThat(quiet.passed()).as(quiet.reason()).isTrue();
        assertThat(quiet.value()).isZero();

        endpoint.set("lane_errors_total", lane("lane-11", "c01"), 40);
        Verdict erring = await().atMost(WITHIN).until(() -> gates.verdict(gate, "lane-11", "c01"), Verdict::failed);
        assertThat(erring.value()).isGreaterThan(0.05);
        assertThat(erring.reason()).matches("metric gate failed: sum\\(rate\\(lane_errors_total\\{system=\"lane-11\","
                + "centre=\"c01\"}\\[1m]\\)\\) = [0-9.]+, needs < 0\\.05");
    }

    @Test
    void aHostileSystemKeyFindsExactlyItsOwnSeries() {
        MetricGates gates = gates(prometheus.url());
        String hostile = "lane \"7\"} or vector(0) # \\";
        scraped(() -> endpoint.set("lane_error_ratio", lane(hostile, "c{system}"), 0.5)
                .set("lane_error_ratio", lane("lane.07", "c03"), 0.01)
                .set("lane_error_ratio", lane("lane707", "c03"), 0.9));

        Verdict v = gates.verdict(new MetricGate(RATIO, "< 0.05"), hostile, "c{system}");
        assertThat(v.failed()).as(v.reason()).isTrue();
        assertThat(v.value()).isEqualTo(0.5);

        MetricGate regex = new MetricGate("lane_error_ratio{system=~\"{system}\"}", "< 0.05");
        Verdict dot = gates.verdict(regex, "lane.07", "c03");
        assertThat(dot.passed()).as("lane.07 as a regex must not match lane707: %s", dot.reason()).isTrue();
        assertThat(dot.reason()).doesNotContain("series");
    }

    @Test
    void noDataIsInconclusiveAndSoIsASeriesThatWentAway() {
        MetricGates gates = gates(prometheus.url());
        MetricGate gate = new MetricGate(RATIO, "< 0.05");
        assertThat(gates.verdict(gate, "lane-99", "c09").reason()).isEqualTo("metric gate inconclusive: "
                + "max(lane_error_ratio{system=\"lane-99\",centre=\"c09\"}) gives no data (no series)");

        scraped(() -> endpoint.set("lane_error_ratio", lane("lane-21", "c01"), 0.9));
        assertThat(gates.verdict(gate, "lane-21", "c01").failed()).isTrue();
        endpoint.remove("lane_error_ratio", lane("lane-21", "c01"));
        await().atMost(WITHIN).until(() -> gates.verdict(gate, "lane-21", "c01"), Verdict::inconclusive);

        MetricGate orZero = new MetricGate("max(lane_error_ratio{system=\"{system}\"}) or vector(0)", "< 0.05");
        assertThat(gates.verdict(orZero, "lane-99", "c09").passed()).as("no series counted as 0 when written so").isTrue();
    }

    @Test
    void prometheusDownIsInconclusiveNeverFailed() throws IOException {
        MetricGate gate = new MetricGate(RATIO, "< 0.05");
        scraped(() -> endpoint.set("lane_error_ratio", lane("lane-31", "c01"), 0.9));
        PrometheusServer second = PrometheusServer.start(endpoint.target());
        MetricGates gates = gates(second.url());
        try {
            second.awaitScraped(Instant.now(), WITHIN);
            assertThat(gates.verdict(gate, "lane-31", "c01").failed()).isTrue();
        } finally {
            second.close();
        }
        assertThat(second.isAlive()).isFalse();
        Verdict down = gates.verdict(gate, "lane-31", "c01");
        assertThat(down.outcome()).isEqualTo(Verdict.Outcome.INCONCLUSIVE);
        assertThat(down.reason()).startsWith("metric gate inconclusive: Prometheus cannot be reached (");

        // a Prometheus that takes the connection and never answers: inconclusive after the configured timeout
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            MetricGates slow = new MetricGates(config("http://127.0.0.1:" + silent.getLocalPort(),
                    Duration.ofMillis(800)), registry);
            long t0 = System.nanoTime();
            Verdict v = slow.verdict(gate, "lane-31", "c01");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(v.reason()).isEqualTo("metric gate inconclusive: Prometheus did not answer within 800 ms");
            assertThat(ms).isBetween(700L, 5_000L);
        }
        assertThat(registry.find(MetricGates.METRIC).tag("outcome", "inconclusive").timer()).isNotNull();
    }

    @Test
    void aNewGateIsShownToPrometheusWhichRefusesWhatItCannotRun() {
        MetricGates gates = gates(prometheus.url());
        assertThat(problems(gates, new MetricGate(RATIO, "< 0.05"))).isEmpty();
        assertThat(problems(gates, new MetricGate("sum((lane_error_ratio{system=\"{system}\"})", "< 0.05")))
                .singleElement().satisfies(e -> {
                    assertThat(e.field()).isEqualTo("metricGate.query");
                    assertThat(e.message()).startsWith("Prometheus rejects it: ").contains("parse error");
                });
        assertThat(problems(gates, new MetricGate("lane_error_ratio{system=\"{system}\"}[1m]", "< 0.05")))
                .containsExactly(new FieldError("metricGate.query",
                        "gives a range vector; it must give a number (an instant vector or a scalar)"));
        // Prometheus away: the gate cannot be checked, and is not refused for it
        assertThat(problems(gates("http://127.0.0.1:" + closedPort()), new MetricGate("sum((x", "< 0.05"))).isEmpty();
    }

    @Test
    void aGateIsCheckedWithoutPrometheusFirstAndRefusedWhenNoneIsConfigured() {
        MetricGates gates = gates(prometheus.url());
        assertThat(problems(gates, new MetricGate(null, "lt 5"))).containsExactly(
                new FieldError("metricGate.query", "is required"),
                new FieldError("metricGate.condition", Condition.RULE + " (got \"lt 5\")"));
        assertThat(problems(gates, new MetricGate("m{system={system}}", null))).containsExactly(
                new FieldError("metricGate.query",
                        "{system} must stand inside a quoted label value, e.g. system=\"{system}\""),
                new FieldError("metricGate.condition", "is required"));
        assertThat(problems(gates(null), new MetricGate(RATIO, "< 0.05"))).containsExactly(new FieldError("metricGate",
                "needs a Prometheus to ask, and none is configured: set qawk.prometheus.url (QAWK_PROMETHEUS_URL), "
                        + "or leave the metric gate out"));
        assertThat(problems(gates("not a url"), new MetricGate(RATIO, "< 0.05"))).singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("needs a Prometheus to ask, and qawk.prometheus.url"));
        assertThat(gates(null).verdict(new MetricGate(RATIO, "< 0.05"), "lane-07", "c01").reason())
                .isEqualTo("metric gate inconclusive: no Prometheus is configured (qawk.prometheus.url)");
    }

    static List<FieldError> problems(MetricGates gates, MetricGate gate) {
        FieldErrors errors = new FieldErrors();
        gates.check(gate, "metricGate", errors);
        if (errors.isEmpty()) {
            return List.of();
        }
        return ((InvalidRequestException) catchThrowable(errors::throwIfAny)).errors();
    }

    static Throwable catchThrowable(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("expected an exception");
    }

    static int closedPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
