package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import io.qawk.orchestrator.deployment.engine.DeviceVerifier;

/**
 * The settings of issue 15 in the API and in Mender YAML: a system type component's {@code health} and a manifest
 * component's {@code verify} are target queries checked with the grammar {@code match} is checked with (a bad one is a
 * problem naming the field, and nothing is stored); a deployment's {@code verifyTimeoutSeconds} and {@code soakSeconds},
 * also from a channel's orchestrator settings.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerificationSettingsApiTest {

    private static final String P = "vs-";
    private static final RestAssuredConfig YAML_AS_TEXT = io.restassured.RestAssured.config()
            .encoderConfig(EncoderConfig.encoderConfig().encodeContentTypeAs("application/yaml", ContentType.TEXT));

    @Inject
    DataSource dataSource;

    @Inject
    DeviceVerifier verifier;

    private long app;
    private long term;
    private int typeId;

    @BeforeEach
    void prepare() {
        if (typeId != 0) {
            return;
        }
        HawkbitFixtures hawkbit = new HawkbitFixtures(SharedHawkbit.get());
        app = hawkbit.createDistributionSet(P + "app", "2.0");
        term = hawkbit.createDistributionSet(P + "term", "2.0");
        typeId = Api.admin().body(type(P + "lane", "\"health\": \"attribute.lane_state==scoring\""))
                .post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
    }

    private static String type(String name, String laneExtra) {
        return """
                {"name": "%s", "systemKey": "attribute.device", "components": [
                  {"componentType": "lane", "match": "attribute.device_type==lane"%s},
                  {"componentType": "terminal", "match": "attribute.device_type==terminal"}]}
                """.formatted(name, laneExtra.isEmpty() ? "" : ", " + laneExtra);
    }

    private String manifest(String name, String laneExtra) {
        return """
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2%s}]}
                """.formatted(name, typeId, term, app, laneExtra.isEmpty() ? "" : ", " + laneExtra);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "system_type", "system_type_component", "manifest", "manifest_component",
                "system_deployment", "fleet");
    }

    private static RequestSpecification yaml(String body) {
        return Api.admin().config(YAML_AS_TEXT).contentType("application/yaml").body(body);
    }

    @Test
    void aHealthQueryIsCheckedLikeAMatchAndShown() {
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId).then().statusCode(200)
                .body("components[0].health", equalTo("attribute.lane_state==scoring"))
                .body("components[1].health", nullValue());
        List<String> before = tables();
        String[][] bad = {
                {"\"health\": \"attribute.lane_state=scoring\"", "expected an operator"},
                {"\"health\": \"lane_state==scoring\"", "unknown field 'lane_state'"},
                {"\"health\": \"\"", "or left out"},
                {"\"health\": 7", "must be"},
        };
        for (String[] c : bad) {
            Api.admin().body(type(P + "bad", c[0])).post("/qawk/v1/systemtypes").then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors.find { it.field == 'components[0].health' }.message", containsString(c[1]));
        }
        assertThat(tables()).as("nothing stored").isEqualTo(before);
    }

    @Test
    void aVerificationQueryIsCheckedLikeAMatchAndShown() {
        List<String> before = tables();
        Api.admin().body(manifest(P + "bad", "\"verify\": \"attribute.app_version=in=2.0\""))
                .post("/qawk/v1/manifests").then().statusCode(400).contentType("application/problem+json")
                .body("errors.find { it.field == 'components[1].verify' }.message",
                        containsString("=in= needs a list of values in parentheses"));
        Api.admin().body(manifest(P + "bad", "\"verify\": \"  \""))
                .post("/qawk/v1/manifests").then().statusCode(400)
                .body("errors.find { it.field == 'components[1].verify' }.message", containsString("or left out"));
        assertThat(tables()).as("nothing stored").isEqualTo(before);

        int id = Api.admin().body(manifest(P + "2.0", "\"verify\": \"attribute.app_version==2.0\""))
                .post("/qawk/v1/manifests").then().statusCode(201)
                .body("components.find { it.componentType == 'lane' }.verify", equalTo("attribute.app_version==2.0"))
                .body("components.find { it.componentType == 'terminal' }.verify", nullValue())
                .extract().path("id");
        Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("components.find { it.componentType == 'lane' }.verify", equalTo("attribute.app_version==2.0"));
    }

    @Test
    void yamlCarriesBothQueriesInAndOut() {
        String topology = """
                api_version: mender/v1
                kind: topology
                system_type: vs-yaml
                qawk_system_key: attribute.device
                components:
                  - component_type: lane
                    qawk_match: attribute.device_type==lane
                    qawk_health: attribute.lane_state==scoring
                  - component_type: terminal
                    qawk_match: attribute.device_type==terminal
                """;
        int type = yaml(topology).post("/qawk/v1/systemtypes/import").then().statusCode(201).extract().path("id");
        Api.viewer().get("/qawk/v1/systemtypes/" + type).then().body("components[0].health",
                equalTo("attribute.lane_state==scoring"));
        assertThat(Api.viewer().get("/qawk/v1/systemtypes/" + type + "/topology.yaml").asString()).isEqualTo(topology);
        yaml(topology).post("/qawk/v1/systemtypes/import").then().statusCode(200).body("result", equalTo("unchanged"));
        yaml(topology.replace("lane_state==scoring", "lane_state==idle")).post("/qawk/v1/systemtypes/import")
                .then().statusCode(200).body("result", equalTo("updated"));
        yaml(topology.replace("qawk_health: attribute.lane_state==scoring", "qawk_health: lane_state=scoring"))
                .post("/qawk/v1/systemtypes/import").then().statusCode(400)
                .body("errors.find { it.field == 'components[0].qawk_health' }.message", containsString("line 8"));

        String manifest = """
                api_version: mender/v1
                kind: manifest
                name: vs-yaml-2.0
                system_types_compatible:
                  - vs-yaml
                component_types:
                  terminal:
                    artifact_name: vs-term:2.0
                    update_strategy:
                      order: 1
                  lane:
                    artifact_name: vs-app:2.0
                    update_strategy:
                      order: 2
                    qawk_verify: attribute.app_version==2.0
                """;
        int m = yaml(manifest).post("/qawk/v1/manifests/import").then().statusCode(201).extract().path("id");
        Api.viewer().get("/qawk/v1/manifests/" + m).then()
                .body("components.find { it.componentType == 'lane' }.verify", equalTo("attribute.app_version==2.0"));
        assertThat(Api.viewer().get("/qawk/v1/manifests/" + m + "/manifest.yaml").asString()).isEqualTo(manifest);
        yaml(manifest).post("/qawk/v1/manifests/import").then().statusCode(200).body("result", equalTo("unchanged"));
        yaml(manifest.replace("qawk_verify: attribute.app_version==2.0", "qawk_verify: app_version==2.0"))
                .post("/qawk/v1/manifests/import").then().statusCode(400)
                .body("errors.find { it.field == 'component_types.lane.qawk_verify' }.message",
                        containsString("unknown field 'app_version'"));
    }

    /**
     * Queries are asked of the real hawkBit: one it answers tells which devices match; one the grammar allows but this
     * hawkBit refuses (a field of a later version) matches no device and says why, instead of failing every pass.
     */
    @Test
    void aQueryIsAskedOfHawkbitAndOneItRefusesMatchesNothingAndSaysWhy() {
        try (DeviceSimulator sim = new DeviceSimulator(SharedHawkbit.get())) {
            String id = P + "asked-1";
            sim.addDevices(List.of(DeviceSpec.of(id, Map.of("lane_state", "scoring"))));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
                    "scoring".equals(new HawkbitFixtures(SharedHawkbit.get()).attributes(id).get("lane_state")));
            Map<String, String> refused = new HashMap<>();

            assertThat(verifier.matches(List.of(new DeviceVerifier.Ask(id, "attribute.lane_state==scoring")), refused))
                    .containsEntry(id, true);
            assertThat(verifier.matches(List.of(new DeviceVerifier.Ask(id, "attribute.lane_state==idle")), refused))
                    .containsEntry(id, false);
            assertThat(refused).isEmpty();
            assertThat(verifier.matches(List.of(new DeviceVerifier.Ask(id, "targettype.key==lane")), refused))
                    .containsEntry(id, false);
            assertThat(refused.get(id)).startsWith("hawkBit refused the query: 400");
        }
    }

    @Test
    void aDeploymentTakesItsVerifyTimeoutAndSoakWithinBounds() {
        int manifest = Api.admin().body(manifest(P + "deploy", "")).post("/qawk/v1/manifests").then().statusCode(201)
                .extract().path("id");
        Api.admin().body("{\"name\": \"vs-defaults\", \"manifestId\": " + manifest + "}").post("/qawk/v1/systemdeployments")
                .then().statusCode(201).body("verifyTimeoutSeconds", equalTo(300)).body("soakSeconds", equalTo(0));
        Api.admin().body("{\"name\": \"vs-given\", \"manifestId\": " + manifest
                        + ", \"verifyTimeoutSeconds\": 60, \"soakSeconds\": 20}").post("/qawk/v1/systemdeployments")
                .then().statusCode(201).body("verifyTimeoutSeconds", equalTo(60)).body("soakSeconds", equalTo(20));
        List<String> before = tables();
        String[][] cases = {
                {"\"verifyTimeoutSeconds\": 0", "verifyTimeoutSeconds", "between 1 and 86400"},
                {"\"verifyTimeoutSeconds\": 86401", "verifyTimeoutSeconds", "between 1 and 86400"},
                {"\"soakSeconds\": -1", "soakSeconds", "between 0 (no soak) and 86400"},
                {"\"soakSeconds\": 86401", "soakSeconds", "between 0 (no soak) and 86400"},
                {"\"soakSeconds\": \"long\"", "soakSeconds", "must be"},
        };
        for (String[] c : cases) {
            Api.admin().body("{\"name\": \"vs-bad\", \"manifestId\": " + manifest + ", " + c[0] + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(400).contentType("application/problem+json")
                    .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
        }
        assertThat(tables()).as("nothing stored").isEqualTo(before);
    }

    @Test
    void aChannelsOrchestratorCarriesSoakAndVerifyTimeoutIntoTheDeploymentOfItsRelease() {
        int manifest = Api.admin().body(manifest(P + "channel", "")).post("/qawk/v1/manifests").then().statusCode(201)
                .extract().path("id");
        List<String> before = tables();
        Api.admin().body("{\"name\": \"vs-bad\", \"match\": \"attribute.channel==vs-bad\","
                        + " \"orchestrator\": {\"soakSeconds\": -5, \"verifyTimeoutSeconds\": 0}}")
                .post("/qawk/v1/fleets").then().statusCode(400).contentType("application/problem+json")
                .body("errors.find { it.field == 'orchestrator.soakSeconds' }.message", containsString("between 0"))
                .body("errors.find { it.field == 'orchestrator.verifyTimeoutSeconds' }.message", containsString("between 1"));
        assertThat(tables()).as("nothing stored").isEqualTo(before);

        int channel = Api.admin().body("{\"name\": \"vs-beta\", \"match\": \"attribute.channel==vs-beta\","
                        + " \"orchestrator\": {\"maxParallel\": 2, \"soakSeconds\": 30, \"verifyTimeoutSeconds\": 60}}")
                .post("/qawk/v1/fleets").then().statusCode(201)
                .body("orchestrator.soakSeconds", equalTo(30)).body("orchestrator.verifyTimeoutSeconds", equalTo(60))
                .body("soakSeconds", equalTo(0)).extract().path("id");
        int deployment = Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel)
                .then().statusCode(200).extract().path("release.deploymentId");
        Api.viewer().get("/qawk/v1/systemdeployments/" + deployment).then().statusCode(200)
                .body("soakSeconds", equalTo(30)).body("verifyTimeoutSeconds", equalTo(60));
        Api.admin().body("{\"orchestrator\": {\"soakSeconds\": 0}}").put("/qawk/v1/fleets/" + channel)
                .then().statusCode(200).body("orchestrator.soakSeconds", equalTo(0))
                .body("orchestrator.verifyTimeoutSeconds", equalTo(60));
    }
}
