package io.qawk.orchestrator.analysis;

import io.qawk.orchestrator.testkit.prometheus.MetricsEndpoint;
import io.qawk.orchestrator.testkit.prometheus.SharedPrometheus;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * The metric gate in the service, with a real Prometheus ({@link PrometheusProfile}) and the real hawkBit: a
 * deployment and a channel carry their gate (a channel's goes into its releases' deployments), Prometheus checks a
 * new gate's query, and {@link MetricGates#verdict} -- what the soak asks -- turns to failed with the value when the
 * system's metric turns bad.
 */
@QuarkusTest
@TestProfile(PrometheusProfile.class)
class MetricGateEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(20);
    static final Duration SOAK_WITHIN = Duration.ofSeconds(120);
    static final String QUERY = "max(lane_error_ratio{system=\"{system}\",centre=\"{centre}\"})";
    static final String GATE = "{\"query\": \"max(lane_error_ratio{system=\\\"{system}\\\",centre=\\\"{centre}\\\"})\", "
            + "\"condition\": \" < 0.05 \"}";

    @Inject
    MetricGates gates;

    @Test
    void aDeploymentCarriesItsGateAndTheVerdictTurnsWhenTheMetricDoes() {
        try (Lanes lanes = new Lanes("gate-e2e-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int id = Api.admin().body("{\"name\": \"gated\", \"manifestId\": " + manifest + ", \"metricGate\": " + GATE + "}")
                    .post("/qawk/v1/systemdeployments")
                    .then().statusCode(201)
                    .body("metricGate.query", equalTo(QUERY))
                    .body("metricGate.condition", equalTo("< 0.05"))
                    .body("metricGate.keySet()", containsInAnyOrder("query", "condition"))
                    .extract().path("id");
            assertThat(Lanes.deployment(id).getString("metricGate.condition")).isEqualTo("< 0.05");

            MetricsEndpoint endpoint = SharedPrometheus.endpoint();
            endpoint.set("lane_error_ratio", Map.of("system", "gate-e2e-lane-07", "centre", "c01"), 0.01);
            SharedPrometheus.get().awaitScraped(Instant.now(), WITHIN);
            MetricGate gate = new MetricGate(QUERY, "< 0.05");
            assertThat(gates.verdict(gate, "gate-e2e-lane-07", "c01").passed()).isTrue();

            endpoint.set("lane_error_ratio", Map.of("system", "gate-e2e-lane-07", "centre", "c01"), 0.31);
            Verdict bad = await().atMost(WITHIN).until(() -> gates.verdict(gate, "gate-e2e-lane-07", "c01"), Verdict::failed);
            assertThat(bad.reason()).isEqualTo("metric gate failed: max(lane_error_ratio{system=\"gate-e2e-lane-07\","
                    + "centre=\"c01\"}) = 0.31, needs < 0.05");

            Api.viewer().get("/q/metrics").then().statusCode(200).body(Matchers.containsString(
                    "qawk_metric_gate_evaluations_seconds_count{outcome=\"failed\""));
        }
    }

    @Test
    void prometheusRefusesAQueryItCannotRunAndNothingIsStored() {
        long before = Api.viewer().get("/qawk/v1/systemdeployments").then().extract().jsonPath().getList("$").size();
        Api.admin().body("{\"name\": \"gated\", \"manifestId\": 1, \"metricGate\": "
                        + "{\"query\": \"sum((up{system=\\\"{system}\\\"})\", \"condition\": \"< 1\"}}")
                .post("/qawk/v1/systemdeployments")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.find { it.field == 'metricGate.query' }.message", startsWith("Prometheus rejects it: "));
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().extract().jsonPath().getList("$")).hasSize((int) before);
    }

    @Test
    void aChannelsGateGoesIntoItsReleasesDeploymentAndEmptyRemovesIt() {
        try (Lanes lanes = new Lanes("gate-ch-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int channel = lanes.channel("beta", "\"orchestrator\": {\"maxParallel\": 2, \"metricGate\": " + GATE + "}");
            assertThat(Lanes.channelView(channel).getString("orchestrator.metricGate.condition")).isEqualTo("< 0.05");

            int deployment = Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel)
                    .then().statusCode(200).extract().path("release.deploymentId");
            Api.viewer().get("/qawk/v1/systemdeployments/" + deployment).then().statusCode(200)
                    .body("metricGate.query", equalTo(QUERY)).body("metricGate.condition", equalTo("< 0.05"));

            Api.admin().body("{\"orchestrator\": {\"metricGate\": {}}}").put("/qawk/v1/fleets/" + channel)
                    .then().statusCode(200).body("orchestrator.metricGate", nullValue());
            int next = Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel)
                    .then().statusCode(200).extract().path("release.deploymentId");
            Api.viewer().get("/qawk/v1/systemdeployments/" + next).then().statusCode(200).body("metricGate", nullValue());
        }
    }
    /**
     * Issue 15's done-when row: two systems soak for 20 s under a metric gate asked of the real Prometheus. One
     * system's error ratio turns bad during the soak: that whole system goes back, the reason giving the query and
     * its value. The other's stays good: it ends succeeded after its soak.
     */
    @Test
    void aQueryThatTurnsBadDuringTheSoakRollsItsSystemBackWithTheValue() {
        try (Lanes lanes = new Lanes("gate-soak-").withSetsAndType()) {
            lanes.system("gate-lane-01", "c01").system("gate-lane-02", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            MetricsEndpoint endpoint = SharedPrometheus.endpoint();
            Map<String, String> bad = Map.of("system", "gate-lane-01", "centre", "c01");
            Map<String, String> good = Map.of("system", "gate-lane-02", "centre", "c01");
            endpoint.set("lane_error_ratio", bad, 0.01);
            endpoint.set("lane_error_ratio", good, 0.02);
            SharedPrometheus.get().awaitScraped(Instant.now(), WITHIN);

            int d = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 2, \"maxFailed\": 1, "
                    + "\"soakSeconds\": 20, \"metricGate\": " + GATE);
            await().atMost(SOAK_WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    Lanes.runs(d).<String>getList("state").equals(List.of("VERIFYING", "VERIFYING")));

            endpoint.set("lane_error_ratio", bad, 0.31);

            await().atMost(SOAK_WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    "ROLLED_BACK".equals(runOf(d, "gate-lane-01").getString("state")));
            assertThat(runOf(d, "gate-lane-01").getString("reason")).matches(Pattern.quote(
                    "metric gate failed: max(lane_error_ratio{system=\"gate-lane-01\",centre=\"c01\"}) = 0.31,"
                            + " needs < 0.05,") + " \\d+ s after the update -- rolled back: 4 of 4 devices on their"
                    + " previous set again");
            JsonPath end = Lanes.awaitState(d, "FINISHED", SOAK_WITHIN);
            assertThat(end.getString("summary")).isEqualTo("1 of 2 updated, 1 rolled back");
            JsonPath steady = runOf(d, "gate-lane-02");
            assertThat(steady.getString("state")).isEqualTo("SUCCEEDED");
            assertThat(Instant.parse(steady.getString("endedAt")))
                    .isAfterOrEqualTo(Instant.parse(steady.getString("soakStartedAt")).plusSeconds(20));
            for (String role : List.of("lane", "term-a", "display")) {
                String set = role.equals("lane") ? "app" : role.startsWith("term") ? "term" : "disp";
                assertThat(lanes.installedSetId(lanes.id("gate-lane-01", role))).as(role).isEqualTo(lanes.set(set + ":1"));
                assertThat(lanes.installedSetId(lanes.id("gate-lane-02", role))).as(role).isEqualTo(lanes.set(set + ":2"));
            }
        } finally {
            SharedPrometheus.endpoint().remove("lane_error_ratio", Map.of("system", "gate-lane-01", "centre", "c01"))
                    .remove("lane_error_ratio", Map.of("system", "gate-lane-02", "centre", "c01"));
        }
    }

    private static JsonPath runOf(int deployment, String system) {
        return new JsonPath(Lanes.runs(deployment).prettify()).setRootPath("find { it.system == '" + system + "' }");
    }
}
