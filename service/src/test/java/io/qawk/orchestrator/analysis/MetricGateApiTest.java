package io.qawk.orchestrator.analysis;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * A metric gate in the API when no Prometheus is configured (the tests' default): refused with a problem that names
 * the field and says why, and nothing stored; a malformed gate names each wrong field. The same service as the other
 * default-profile tests (no restart); {@link MetricGateEndToEndTest} has a Prometheus.
 */
@QuarkusTest
class MetricGateApiTest {

    static final String GATE = """
            {"query": "max(lane_error_ratio{system=\\"{system}\\",centre=\\"{centre}\\"})", "condition": "< 0.05"}""";

    @Inject
    DataSource dataSource;

    @Test
    void aGateIsRefusedWhileNoPrometheusIsConfiguredAndNothingIsStored() {
        try (Lanes lanes = new Lanes("gate-api-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            List<String> before = Tables.dump(dataSource, "system_deployment", "fleet");

            Api.admin().body("{\"name\": \"gated\", \"manifestId\": " + manifest + ", \"metricGate\": " + GATE + "}")
                    .post("/qawk/v1/systemdeployments")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", containsInAnyOrder("metricGate"))
                    .body("errors[0].message", equalTo("needs a Prometheus to ask, and none is configured: set "
                            + "qawk.prometheus.url (QAWK_PROMETHEUS_URL), or leave the metric gate out"));

            Api.admin().body("{\"name\": \"gate-api-ch\", \"match\": \"attribute.channel==gate-api-ch\", "
                            + "\"orchestrator\": {\"maxParallel\": 2, \"metricGate\": " + GATE + "}}")
                    .post("/qawk/v1/fleets")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", containsInAnyOrder("orchestrator.metricGate"))
                    .body("errors[0].message", containsString("none is configured"));

            assertThat(Tables.dump(dataSource, "system_deployment", "fleet")).isEqualTo(before);
        }
    }

    @Test
    void aMalformedGateNamesEachWrongField() {
        Api.admin().body("""
                        {"name": "gated", "manifestId": 1,
                         "metricGate": {"query": "m{system={system}}", "condition": "lt 0.05"}}""")
                .post("/qawk/v1/systemdeployments")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.find { it.field == 'metricGate.query' }.message",
                        equalTo("{system} must stand inside a quoted label value, e.g. system=\"{system}\""))
                .body("errors.find { it.field == 'metricGate.condition' }.message",
                        equalTo(Condition.RULE + " (got \"lt 0.05\")"));

        Api.admin().body("{\"name\": \"gated\", \"manifestId\": 1, \"metricGate\": {}}")
                .post("/qawk/v1/systemdeployments")
                .then().statusCode(400)
                .body("errors.find { it.field == 'metricGate.query' }.message", equalTo("is required"))
                .body("errors.find { it.field == 'metricGate.condition' }.message", equalTo("is required"));

        Api.admin().body("""
                        {"name": "gated", "manifestId": 1,
                         "metricGate": {"query": "up", "successCondition": "result[0] < 0.05"}}""")
                .post("/qawk/v1/systemdeployments")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("metricGate.successCondition"));

        Api.admin().body("{\"name\": \"gated\", \"manifestId\": 1, \"metricGate\": \"up < 0.05\"}")
                .post("/qawk/v1/systemdeployments")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("metricGate"));
    }

    @Test
    void withoutAGateNothingChanges() {
        try (Lanes lanes = new Lanes("gate-none-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            Api.admin().body("{\"name\": \"ungated\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments")
                    .then().statusCode(201).body("metricGate", nullValue());
            int channel = lanes.channel("ch", "\"orchestrator\": {\"maxParallel\": 2, \"metricGate\": {}}");
            assertThat(Lanes.channelView(channel).<String, Object>getMap("orchestrator")).containsEntry("metricGate", null);
        }
    }
}
