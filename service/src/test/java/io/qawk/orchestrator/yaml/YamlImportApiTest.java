package io.qawk.orchestrator.yaml;

import io.qawk.orchestrator.manifest.BlockingManifestUsage;
import io.qawk.orchestrator.manifest.MgmtApi;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

/** Mender YAML in and out, against a real hawkBit (artifact names are resolved there). */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class YamlImportApiTest {

    private static final String P = "yml-";
    private static final String TOPOLOGIES = "/qawk/v1/systemtypes/import";
    private static final String MANIFESTS = "/qawk/v1/manifests/import";

    /** The topology every manifest of this test is for. */
    private static final String LANE = """
            api_version: mender/v1
            kind: topology
            system_type: yml-lane
            qawk_system_key: attribute.device
            components:
              - component_type: device1
                qawk_match: attribute.device_type==device1
              - component_type: device2
                qawk_match: attribute.device_type==device2
            """;

    @Inject
    DataSource dataSource;

    private HawkbitFixtures hawkbit;
    private long app10;
    private long app11;
    private long fw;
    private long laneId;

    @BeforeEach
    void prepare() {
        if (hawkbit != null) {
            return;
        }
        hawkbit = new HawkbitFixtures(SharedHawkbit.get());
        app10 = hawkbit.createDistributionSet(P + "app", "1.0");
        app11 = hawkbit.createDistributionSet(P + "app", "1.1");
        fw = hawkbit.createDistributionSet(P + "fw", "2.0");
        MgmtApi.createIncompleteSet(P + "incomplete", "1.0");
        laneId = yaml(LANE).post(TOPOLOGIES).then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** RestAssured sends the YAML media types as text. */
    private static final io.restassured.config.RestAssuredConfig YAML_AS_TEXT = io.restassured.RestAssured.config()
            .encoderConfig(io.restassured.config.EncoderConfig.encoderConfig()
                    .encodeContentTypeAs("application/yaml", io.restassured.http.ContentType.TEXT)
                    .encodeContentTypeAs("text/yaml", io.restassured.http.ContentType.TEXT)
                    .encodeContentTypeAs("application/x-yaml", io.restassured.http.ContentType.TEXT));

    private static RequestSpecification yaml(String body) {
        return Api.admin().config(YAML_AS_TEXT).contentType("application/yaml").body(body);
    }

    private List<String> tables() {
        return Tables.dump(dataSource, "system_type", "system_type_component", "manifest", "manifest_component");
    }

    // ------------------------------------------------------------------------------------------ topologies ----

    @Test
    void aTopologyRoundTrips() {
        String topology = """
                # a system of a lane computer and two terminals
                api_version: mender/v1
                kind: topology
                system_type: yml-round
                qawk_system_key: attribute.device
                qawk_group_key: attribute.centerid
                components:
                  - component_type: device1
                    interface: rootfs-image
                    qawk_match: attribute.device_type==device1
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                    interface_args: ["--port", "1"]
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                """;
        JsonPath created = yaml(topology).post(TOPOLOGIES).then().statusCode(201)
                .header("Location", containsString("/qawk/v1/systemtypes/"))
                .body("result", equalTo("created"))
                .body("name", equalTo(P + "round"))
                .body("ignored", contains("components[0].interface", "components[1].interface_args"))
                .extract().jsonPath();
        long id = created.getLong("id");

        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("systemKey", equalTo("attribute.device"))
                .body("groupKey", equalTo("attribute.centerid"))
                .body("components.componentType", contains("device1", "device2"))
                .body("components[1].match", equalTo("attribute.device_type==device2"));

        Response export = Api.viewer().get("/qawk/v1/systemtypes/" + id + "/topology.yaml");
        export.then().statusCode(200).contentType(startsWith("application/yaml"));
        assertThat(export.asString()).isEqualTo("""
                api_version: mender/v1
                kind: topology
                system_type: yml-round
                qawk_system_key: attribute.device
                qawk_group_key: attribute.centerid
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                """);

        List<String> before = tables();
        yaml(export.asString()).post(TOPOLOGIES).then().statusCode(200)
                .body("result", equalTo("unchanged")).body("id", equalTo((int) id)).body("ignored", empty());
        yaml(topology).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        assertThat(tables()).as("an unchanged import writes nothing, not even updatedAt").isEqualTo(before);
    }

    @Test
    void aTopologysGuardRoundTripsAndABadOneIsRefusedNamingQawkGuard() {
        String topology = """
                api_version: mender/v1
                kind: topology
                system_type: yml-guarded
                qawk_system_key: attribute.device
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                qawk_guard: hold
                """;
        long id = yaml(topology).post(TOPOLOGIES).then().statusCode(201).extract().jsonPath().getLong("id");
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200).body("guard", equalTo("hold"));
        String export = Api.viewer().get("/qawk/v1/systemtypes/" + id + "/topology.yaml").then().statusCode(200)
                .extract().asString();
        assertThat(export).isEqualTo(topology);
        yaml(export).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        // left out, the guard keeps its value, as a PUT keeps what it does not name; going back to watch is said
        yaml(topology.replace("qawk_guard: hold\n", "")).post(TOPOLOGIES).then().statusCode(200)
                .body("result", equalTo("unchanged"));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200).body("guard", equalTo("hold"));
        yaml(topology.replace("qawk_guard: hold", "qawk_guard: watch")).post(TOPOLOGIES).then().statusCode(200)
                .body("result", equalTo("updated"));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200).body("guard", equalTo("watch"));
        List<String> before = tables();
        yaml(topology.replace("qawk_guard: hold", "qawk_guard: stop")).post(TOPOLOGIES).then().statusCode(400)
                .body("errors[0].field", equalTo("qawk_guard"));
        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void anImportKeepsWhatItLeavesOutOfQawksKeysAndClearsOnlyWhatItSays() {
        String topology = """
                api_version: mender/v1
                kind: topology
                system_type: yml-kept
                qawk_system_key: attribute.device
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                    qawk_health: attribute.lane_state==scoring
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                qawk_rules:
                  - if: { device2: "kept-fw:[2.0,)" }
                    then: { device1: "kept-app:[2.0,)" }
                    why: fw 2 needs app 2
                qawk_approval: required
                """;
        long id = yaml(topology).post(TOPOLOGIES).then().statusCode(201).extract().jsonPath().getLong("id");
        String mender = """
                api_version: mender/v1
                kind: topology
                system_type: yml-kept
                qawk_system_key: attribute.device
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                """;
        yaml(mender).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules", hasSize(1)).body("rules[0].why", equalTo("fw 2 needs app 2"))
                .body("approval", equalTo("required"))
                .body("components[0].health", equalTo("attribute.lane_state==scoring"));

        yaml(mender + "qawk_rules: []\n").post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("updated"));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules", hasSize(0)).body("approval", equalTo("required"))
                .body("components[0].health", equalTo("attribute.lane_state==scoring"));
    }

    @Test
    void aTopologyWithRulesRoundTripsAndItsManifestsAreGivenTheirOrders() {
        String topology = """
                api_version: mender/v1
                kind: topology
                system_type: yml-ruled
                qawk_system_key: attribute.device
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                qawk_rules:
                  - if: { device1: "yml-app:[1.1,)" }
                    then: { device2: "yml-fw:[2.0,)" }
                    why: app 1.1 reads the new firmware's log format
                """;
        long id = yaml(topology).post(TOPOLOGIES).then().statusCode(201).extract().jsonPath().getLong("id");
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules[0].if.device1", equalTo("yml-app:[1.1,)"))
                .body("rules[0].then.device2", equalTo("yml-fw:[2.0,)"))
                .body("rules[0].why", equalTo("app 1.1 reads the new firmware's log format"));

        String export = Api.viewer().get("/qawk/v1/systemtypes/" + id + "/topology.yaml").then().statusCode(200)
                .extract().asString();
        assertThat(export).isEqualTo("""
                api_version: mender/v1
                kind: topology
                system_type: yml-ruled
                qawk_system_key: attribute.device
                components:
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                  - component_type: device2
                    qawk_match: attribute.device_type==device2
                qawk_rules:
                  - if:
                      device1: "yml-app:[1.1,)"
                    then:
                      device2: "yml-fw:[2.0,)"
                    why: app 1.1 reads the new firmware's log format
                """);
        List<String> before = tables();
        yaml(export).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        yaml(topology).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        assertThat(tables()).isEqualTo(before);

        yaml(topology.replace("device2: \"yml-fw", "device3: \"yml-fw")).post(TOPOLOGIES).then().statusCode(400)
                .body("errors[0].field", equalTo("qawk_rules[0].then.device3"));

        // a topology without qawk_rules (a Mender one knows none) keeps the type's rules; clearing them is said
        String withoutRules = topology.substring(0, topology.indexOf("qawk_rules:"));
        yaml(withoutRules).post(TOPOLOGIES).then().statusCode(200).body("result", equalTo("unchanged"));
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("rules[0].why", equalTo("app 1.1 reads the new firmware's log format"));

        // no update_strategy anywhere: the rules put the firmware first; without rules it would all be order 1
        String manifest = """
                api_version: mender/v1
                kind: manifest
                name: yml-ruled-1.1
                system_types_compatible: [yml-ruled]
                component_types:
                  device1: { artifact_name: "yml-app:1.1" }
                  device2: { artifact_name: "yml-fw:2.0" }
                """;
        long m = yaml(manifest).post(MANIFESTS).then().statusCode(201).extract().jsonPath().getLong("id");
        Api.viewer().get("/qawk/v1/manifests/" + m).then().statusCode(200)
                .body("components.find { it.componentType == 'device1' }.order", equalTo(2))
                .body("components.find { it.componentType == 'device2' }.order", equalTo(1));
        yaml(manifest).post(MANIFESTS).then().statusCode(200).body("result", equalTo("unchanged"));
        yaml(manifest.replace("{ artifact_name: \"yml-app:1.1\" }",
                "{ artifact_name: \"yml-app:1.1\", update_strategy: { order: 1 } }")
                .replace("{ artifact_name: \"yml-fw:2.0\" }",
                        "{ artifact_name: \"yml-fw:2.0\", update_strategy: { order: 1 } }"))
                .post(MANIFESTS).then().statusCode(400)
                .body("errors[0].field", equalTo("component_types.device1.update_strategy.order"))
                .body("errors[0].message", containsString("put device1 after device2: order 2"));
    }

    @Test
    void importingAChangedTopologyUpdatesIt() {
        String v1 = LANE.replace("yml-lane", P + "changing");
        long id = yaml(v1).post(TOPOLOGIES).then().statusCode(201).extract().jsonPath().getLong("id");
        String updatedAt = Api.viewer().get("/qawk/v1/systemtypes/" + id).then().extract().path("updatedAt");

        yaml(v1.replace("device_type==device2", "device_type==terminal")
                .replace("qawk_system_key: attribute.device", "qawk_system_key: metadata.lane"))
                .contentType("text/yaml").post(TOPOLOGIES).then().statusCode(200)
                .body("result", equalTo("updated")).body("id", equalTo((int) id));

        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200)
                .body("systemKey", equalTo("metadata.lane"))
                .body("components[1].match", equalTo("attribute.device_type==terminal"))
                .body("updatedAt", Matchers.not(equalTo(updatedAt)));
    }

    // ------------------------------------------------------------------------------------------- manifests ----

    @Test
    void aManifestRoundTripsAndANameAloneIsItsNewestSet() {
        String manifest = """
                api_version: mender/v1
                kind: manifest
                name: yml-lane-2.0
                system_types_compatible: [yml-lane]
                component_types:
                  device2:
                    artifact_name: yml-fw:2.0
                    artifact_path: /data/fw.mender
                    update_strategy: { order: 5 }
                  device1:
                    artifact_name: yml-app
                """;
        long id = yaml(manifest).contentType("application/x-yaml").post(MANIFESTS).then().statusCode(201)
                .header("Location", containsString("/qawk/v1/manifests/"))
                .body("result", equalTo("created"))
                .body("ignored", contains("component_types.device2.artifact_path"))
                .extract().jsonPath().getLong("id");

        Api.viewer().get("/qawk/v1/manifests/" + id).then().statusCode(200)
                .body("systemTypeId", equalTo((int) laneId))
                .body("components.componentType", contains("device2", "device1"))
                .body("components[0].distributionSetId", equalTo((int) fw))
                .body("components[0].order", equalTo(5))
                .body("components[1].distributionSetId", equalTo((int) app11))
                .body("components[1].distributionSet", equalTo(P + "app:1.1"))
                .body("components[1].order", equalTo(1))
                .body("orders", contains(1, 5));

        String export = Api.viewer().get("/qawk/v1/manifests/" + id + "/manifest.yaml")
                .then().statusCode(200).contentType(startsWith("application/yaml")).extract().asString();
        assertThat(export).isEqualTo("""
                api_version: mender/v1
                kind: manifest
                name: yml-lane-2.0
                system_types_compatible:
                  - yml-lane
                component_types:
                  device2:
                    artifact_name: yml-fw:2.0
                    update_strategy:
                      order: 5
                  device1:
                    artifact_name: yml-app:1.1
                    update_strategy:
                      order: 1
                """);

        List<String> before = tables();
        yaml(export).post(MANIFESTS).then().statusCode(200).body("result", equalTo("unchanged"))
                .body("id", equalTo((int) id));
        yaml(manifest).post(MANIFESTS).then().statusCode(200).body("result", equalTo("unchanged"));
        assertThat(tables()).isEqualTo(before);

        yaml(export.replace("yml-app:1.1", "yml-app:1.0")).post(MANIFESTS).then().statusCode(200)
                .body("result", equalTo("updated"));
        Api.viewer().get("/qawk/v1/manifests/" + id).then()
                .body("components[1].distributionSetId", equalTo((int) app10))
                .body("components[1].distributionSet", equalTo(P + "app:1.0"));
    }

    @Test
    void anImportIsRefusedWhereADirectUpdateWouldBe() {
        String name = BlockingManifestUsage.PREFIX + "yaml";
        String manifest = """
                api_version: mender/v1
                kind: manifest
                name: %s
                system_types_compatible: [yml-lane]
                component_types:
                  device1: { artifact_name: "yml-app:1.0" }
                """.formatted(name);
        yaml(manifest).post(MANIFESTS).then().statusCode(201);
        yaml(manifest).post(MANIFESTS).then().statusCode(200).body("result", equalTo("unchanged"));
        List<String> before = tables();

        yaml(manifest.replace("yml-app:1.0", "yml-app:1.1")).post(MANIFESTS).then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("used by a deployment that has not ended"));
        // the topology cannot lose device1 while a manifest names it
        yaml(LANE.replace("""
                  - component_type: device1
                    qawk_match: attribute.device_type==device1
                """, "")).post(TOPOLOGIES).then().statusCode(409)
                .body("detail", containsString("cannot lose component type(s) that manifests use: 'device1'"));
        assertThat(tables()).isEqualTo(before);
    }

    // ------------------------------------------------------------------------------------------ bad input -----

    static Stream<Arguments> malformed() {
        String manifestHead = """
                api_version: mender/v1
                kind: manifest
                name: yml-bad
                """;
        String goodTypes = "system_types_compatible: [yml-lane]\n";
        return Stream.of(
                // not YAML, or not one document
                Arguments.of("not YAML", TOPOLOGIES, "kind: topology\nsystem_type: a: b\n", "",
                        "not valid YAML at line 2, column 15: mapping values are not allowed here"),
                Arguments.of("two documents", TOPOLOGIES, LANE + "---\n" + LANE, "",
                        "more than one YAML document (another starts at line 11"),
                Arguments.of("a list, not a mapping", TOPOLOGIES, "- a\n- b\n", "", "must be a mapping"),
                Arguments.of("billion laughs", TOPOLOGIES, YamlParsingTest.BILLION_LAUGHS, "", "anchors (&a) are not supported"),
                Arguments.of("deeply nested", TOPOLOGIES, "components: " + "[".repeat(25) + "]".repeat(25), "",
                        "nested more than 20 levels"),
                Arguments.of("duplicate key", TOPOLOGIES, LANE + "system_type: other\n", "",
                        "the key 'system_type' appears twice in one mapping (again at line 10, column 1)"),
                // the header
                Arguments.of("wrong api_version", TOPOLOGIES, LANE.replace("mender/v1", "mender/v2"), "api_version",
                        "must be mender/v1 (got 'mender/v2') (line 1, column 1)"),
                Arguments.of("manifest sent as topology", TOPOLOGIES, LANE.replace("kind: topology", "kind: manifest"),
                        "kind", "this endpoint imports kind: topology (send a manifest to /qawk/v1/manifests/import)"),
                Arguments.of("unknown kind", TOPOLOGIES, LANE.replace("kind: topology", "kind: deployment"),
                        "kind", "must be topology (got 'deployment')"),
                Arguments.of("missing kind", TOPOLOGIES, LANE.replace("kind: topology\n", ""), "kind", "is required"),
                // topology content
                Arguments.of("missing qawk_system_key", TOPOLOGIES, LANE.replace("qawk_system_key: attribute.device\n", ""),
                        "qawk_system_key", "is required by Qawk"),
                Arguments.of("missing qawk_match", TOPOLOGIES,
                        LANE.replace("    qawk_match: attribute.device_type==device2\n", ""),
                        "components[1].qawk_match", "is required by Qawk: the hawkBit target query that finds this "
                                + "component's devices (e.g. attribute.device_type==device2) (missing from the "
                                + "mapping at line 8, column 5)"),
                Arguments.of("unknown top-level key", TOPOLOGIES, LANE + "colour: red\n", "colour",
                        "is not a key of a topology"),
                Arguments.of("unknown component key", TOPOLOGIES, LANE.replace("    qawk_match: attribute.device_type==device1",
                        "    qawk_matches: attribute.device_type==device1"), "components[0].qawk_matches",
                        "is not a key of a topology component"),
                Arguments.of("instances that disagree", TOPOLOGIES, LANE + """
                          - component_type: device2
                            qawk_match: attribute.device_type==terminal
                        """, "components[2].qawk_match", "component_type 'device2' is listed again with a different "
                        + "qawk_match ('attribute.device_type==terminal' here, 'attribute.device_type==device2' at components[1])"),
                Arguments.of("components not a list", TOPOLOGIES, LANE.substring(0, LANE.indexOf("components:"))
                        + "components: device1\n", "components", "must be a list"),
                Arguments.of("number for text", TOPOLOGIES, LANE.replace("system_type: yml-lane", "system_type: 2024"),
                        "system_type", "must be text, not the number 2024 (quote it if it is meant as text) (line 3, column 1)"),
                Arguments.of("broken qawk_match", TOPOLOGIES, LANE.replace("device_type==device1", "device_type=device1"),
                        "components[0].qawk_match", "expected an operator"),
                Arguments.of("bad qawk_system_key", TOPOLOGIES, LANE.replace("attribute.device\n", "device\n"),
                        "qawk_system_key", "must be attribute.<key> or metadata.<key>"),
                // manifest content
                Arguments.of("topology sent as manifest", MANIFESTS, LANE, "kind",
                        "send a topology to /qawk/v1/systemtypes/import"),
                Arguments.of("two system types", MANIFESTS, manifestHead + "system_types_compatible: [yml-lane, other]\n"
                        + "component_types:\n  device1: {artifact_name: yml-app:1.0}\n", "system_types_compatible",
                        "names 2 system types; a Qawk manifest is for exactly one"),
                Arguments.of("unknown system type", MANIFESTS, manifestHead + "system_types_compatible: [nowhere]\n"
                        + "component_types:\n  device1: {artifact_name: yml-app:1.0}\n", "system_types_compatible[0]",
                        "system type 'nowhere' does not exist; import its topology first"),
                Arguments.of("unknown set", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-app:9.9\n",
                        "component_types.device1.artifact_name", "hawkBit has no distribution set 'yml-app:9.9' (line 7, column 5)"),
                Arguments.of("unknown set name", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-nothing\n",
                        "component_types.device1.artifact_name", "hawkBit has no distribution set named 'yml-nothing' (in any version)"),
                Arguments.of("incomplete set", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-incomplete:1.0\n",
                        "component_types.device1.artifact_name", "is incomplete"),
                Arguments.of("order zero", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-app:1.0\n    update_strategy: {order: 0}\n",
                        "component_types.device1.update_strategy.order", "must be between 1 and 1000 (got 0)"),
                Arguments.of("order as text", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-app:1.0\n    update_strategy: {order: first}\n",
                        "component_types.device1.update_strategy.order", "must be a whole number from 1 to 1000, not the text 'first'"),
                Arguments.of("order as fraction", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-app:1.0\n    update_strategy: {order: 1.5}\n",
                        "component_types.device1.update_strategy.order", "not the number 1.5"),
                Arguments.of("unknown strategy key", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_name: yml-app:1.0\n    update_strategy: {order: 1, retries: 3}\n",
                        "component_types.device1.update_strategy.retries", "is not a key of update_strategy"),
                Arguments.of("component type not in the topology", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  printer:\n    artifact_name: yml-app:1.0\n",
                        "component_types.printer", "'printer' is not a component of system type 'yml-lane' (its components: device1, device2) (line 6, column 3)"),
                Arguments.of("artifact_path only", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  device1:\n    artifact_path: /data/app.mender\n",
                        "component_types.device1.artifact_name", "artifact_path (a file) cannot stand in for it"),
                Arguments.of("no component types", MANIFESTS, manifestHead + goodTypes + "component_types: {}\n",
                        "component_types", "must hold at least one component type"),
                Arguments.of("component types as a list", MANIFESTS, manifestHead + goodTypes
                        + "component_types:\n  - device1\n", "component_types", "must be a mapping"),
                Arguments.of("missing name", MANIFESTS, manifestHead.replace("name: yml-bad\n", "") + goodTypes
                        + "component_types:\n  device1: {artifact_name: yml-app:1.0}\n", "name", "is required"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedDocumentsAreRefusedPreciselyAndChangeNothing(String what, String endpoint, String body,
                                                                String field, String message) {
        List<String> before = tables();

        yaml(body).post(endpoint).then().statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("errors.find { it.field == '" + field + "' }.message", containsString(message));

        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void allProblemsOfADocumentAreListedAtOnce() {
        yaml("""
                api_version: mender/v1
                kind: topology
                system_type: yml-many
                colour: red
                components:
                  - component_type: a
                  - qawk_match: attribute.x==y
                """).post(TOPOLOGIES).then().statusCode(400)
                .body("detail", equalTo("4 fields are invalid"))
                .body("errors.field", Matchers.containsInAnyOrder("colour", "qawk_system_key",
                        "components[0].qawk_match", "components[1].component_type"));
    }

    @Test
    void aHugeDocumentIsRefusedWithAClearMessage() {
        List<String> before = tables();
        String huge = LANE + "# " + "x".repeat(300 * 1024) + "\n";
        yaml(huge).post(TOPOLOGIES).then().statusCode(400)
                .body("detail", containsString("at most 262144 bytes (256 KB) are accepted"));
        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void onlyYamlIsAccepted() {
        List<String> before = tables();
        Api.admin().body("{\"kind\": \"topology\"}").post(TOPOLOGIES).then().statusCode(415)
                .contentType("application/problem+json")
                .body("detail", containsString("Content-Type application/yaml"));
        yaml("").post(TOPOLOGIES).then().statusCode(400)
                .body("detail", containsString("the body is empty"));
        assertThat(tables()).isEqualTo(before);
    }

    @Test
    void exportsAnswer404ForUnknownIdsAndViewersCannotImport() {
        Api.viewer().get("/qawk/v1/systemtypes/999999/topology.yaml").then().statusCode(404)
                .contentType("application/problem+json");
        Api.viewer().get("/qawk/v1/manifests/999999/manifest.yaml").then().statusCode(404)
                .contentType("application/problem+json");
        List<String> before = tables();
        Api.viewer().config(YAML_AS_TEXT).contentType("application/yaml").body(LANE.replace("yml-lane", P + "viewer"))
                .post(TOPOLOGIES).then().statusCode(403);
        assertThat(tables()).isEqualTo(before);
    }
}
