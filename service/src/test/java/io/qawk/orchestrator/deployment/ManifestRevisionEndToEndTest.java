package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static io.qawk.orchestrator.testsupport.Lanes.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rule 5 against the real hawkBit: what passed the gate is what goes on. A deployment runs its manifest as it was
 * when it started; editing the manifest afterwards (API or YAML re-import) changes what later deployments run, never
 * what a started one assigns — to a system that joins, to a system taken again, or down the pipeline by promotion.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ManifestRevisionEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

    /** Creates version 3 ("the fixed build") of the three sets. */
    private static void version3(Lanes lanes) {
        for (String name : List.of("app", "term", "disp")) {
            lanes.sets.put(name + ":3", lanes.hawkbit.createDistributionSet(lanes.prefix + name, "3"));
        }
    }

    /** Edits the manifest through the API to the given version's sets. */
    private static void edit(Lanes lanes, int manifestId, String name, String version) {
        Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1},
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(lanes.prefix + name, lanes.typeId, lanes.set("term:" + version), lanes.set("disp:" + version),
                lanes.set("app:" + version))).put("/qawk/v1/manifests/" + manifestId).then().statusCode(200);
    }

    /** Re-imports the manifest as Mender YAML, as CI does on every change, pointing at the given version's sets. */
    private static void reimport(Lanes lanes, String name, String version) {
        String p = lanes.prefix;
        Api.admin().config(io.restassured.RestAssured.config().encoderConfig(io.restassured.config.EncoderConfig
                        .encoderConfig().encodeContentTypeAs("application/yaml", io.restassured.http.ContentType.TEXT)))
                .contentType("application/yaml").body("""
                api_version: mender/v1
                kind: manifest
                name: %1$s%2$s
                system_types_compatible:
                  - %1$slane
                component_types:
                  terminal:
                    artifact_name: %1$sterm:%3$s
                    update_strategy: { order: 1 }
                  display:
                    artifact_name: %1$sdisp:%3$s
                    update_strategy: { order: 1 }
                  lane:
                    artifact_name: %1$sapp:%3$s
                    update_strategy: { order: 2 }
                """.formatted(p, name, version)).post("/qawk/v1/manifests/import").then().statusCode(200)
                .body("result", Matchers.equalTo("updated"));
    }

    private static JsonPath awaitRelease(int channelId, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(channelView(channelId).getString("release.state")));
        return channelView(channelId);
    }

    private void assertOn(Lanes lanes, String system, String version) {
        assertThat(lanes.installedSetId(lanes.id(system, "lane"))).as(system + " lane").isEqualTo(lanes.set("app:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "term-a"))).as(system + " term-a").isEqualTo(lanes.set("term:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "display"))).as(system + " display").isEqualTo(lanes.set("disp:" + version));
    }

    @Test
    void aSystemThatJoinsAfterAReimportGetsTheManifestAsItWasWhenTheDeploymentStarted() {
        try (Lanes lanes = new Lanes("rev-join-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c02", "elsewhere");
            version3(lanes);
            int dev = lanes.channel("dev", "");
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            int deployment = awaitRelease(dev, "COMPLETE").getInt("release.deploymentId");
            assertOn(lanes, "lane-01", "2");

            // CI re-imports the manifest (a new build) after dev's deployment ran
            reimport(lanes, "2.0", "3");

            // lane-02 joins dev: its deployment reopens and gives it what lane-01 got
            lanes.move("lane-02", "dev");
            sync();
            await().atMost(WITHIN).until(() -> runs(deployment).getList("system").contains("lane-02"));
            JsonPath done = awaitRelease(dev, "COMPLETE");
            assertOn(lanes, "lane-02", "2");

            assertThat(done.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(done.getBoolean("release.manifestChangedSince")).isTrue();
            JsonPath d = Lanes.deployment(deployment);
            assertThat(d.getInt("manifestRevision")).isEqualTo(1);
            assertThat(d.getBoolean("manifestChangedSince")).isTrue();
        }
    }

    @Test
    void promotionCarriesTheRevisionThatPassedTheGateNotAnEditMadeSince() {
        try (Lanes lanes = new Lanes("rev-promo-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta");
            version3(lanes);
            int beta = lanes.channel("beta", "");
            int dev = lanes.channel("dev", "\"promotesTo\": " + beta);
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            JsonPath devDone = awaitRelease(dev, "COMPLETE");

            edit(lanes, manifest, "2.0", "3");
            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200);
            JsonPath betaDone = awaitRelease(beta, "COMPLETE");
            assertOn(lanes, "lane-02", "2");

            assertThat(devDone.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(devDone.getBoolean("release.manifestChangedSince")).isFalse();
            assertThat(betaDone.getInt("release.manifestId")).isEqualTo(manifest);
            assertThat(betaDone.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(betaDone.getBoolean("release.manifestChangedSince")).isTrue();
            assertThat(channelView(dev).getBoolean("release.manifestChangedSince")).isTrue();

            // a new release to dev takes the edit: revision 2
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            JsonPath again = awaitRelease(dev, "COMPLETE");
            assertOn(lanes, "lane-01", "3");
            assertThat(again.getInt("release.manifestRevision")).isEqualTo(2);
            assertThat(again.getBoolean("release.manifestChangedSince")).isFalse();
        }
    }

    @Test
    void aStartFreezesANewRevisionOnlyWhenTheManifestChanged() {
        try (Lanes lanes = new Lanes("rev-num-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            version3(lanes);
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            String lane = "\"systems\": [\"lane-01\"]"; // a real scope: a start with nothing in scope is refused
            int draft = Api.admin().body("{\"name\": \"draft\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
            assertThat(Lanes.deployment(draft).getString("manifestRevision")).isNull();
            assertThat(Lanes.deployment(draft).getBoolean("manifestChangedSince")).isFalse();
            Api.admin().post("/qawk/v1/systemdeployments/" + draft + "/abort").then().statusCode(200);

            int first = lanes.deploy(manifest, lane);
            Lanes.awaitState(first, "FINISHED", WITHIN);
            int second = lanes.deploy(manifest, lane);
            Lanes.awaitState(second, "FINISHED", WITHIN);
            assertThat(Lanes.deployment(second).getInt("manifestRevision")).isEqualTo(1);

            edit(lanes, manifest, "2.0", "2"); // the same content again: nothing to freeze
            int third = lanes.deploy(manifest, lane);
            Lanes.awaitState(third, "FINISHED", WITHIN);
            assertThat(Lanes.deployment(third).getInt("manifestRevision")).isEqualTo(1);
            assertThat(Lanes.deployment(first).getBoolean("manifestChangedSince")).isFalse();

            reimport(lanes, "2.0", "3");
            assertThat(Lanes.deployment(first).getBoolean("manifestChangedSince")).isTrue();
            int fourth = lanes.deploy(manifest, lane);
            Lanes.awaitState(fourth, "FINISHED", WITHIN);
            assertThat(Lanes.deployment(fourth).getInt("manifestRevision")).isEqualTo(2);
            assertThat(Lanes.deployment(fourth).getBoolean("manifestChangedSince")).isFalse();
            assertThat(Lanes.deployment(third).getInt("manifestRevision")).isEqualTo(1);
        }
    }

    @Test
    void takingASystemAgainAfterAnEditUsesTheOldRevisionAndANewDeploymentTheNewOne() {
        try (Lanes lanes = new Lanes("rev-again-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            version3(lanes);
            lanes.behaviour("lane-01", "lane", Behaviour.failFor(lanes.set("app:2")));
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int first = lanes.deploy(manifest, "\"maxFailed\": 0");
            Lanes.awaitState(first, "FAILED", WITHIN);

            edit(lanes, manifest, "2.0", "3");
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            int runId = runs(first).getInt("[0].id");
            Api.admin().body("{\"reason\": \"PSU replaced\"}")
                    .post("/qawk/v1/systemdeployments/" + first + "/runs/" + runId + "/retry").then().statusCode(200);
            Lanes.awaitState(first, "FINISHED", WITHIN);
            assertOn(lanes, "lane-01", "2");
            JsonPath old = Lanes.deployment(first);
            assertThat(old.getInt("manifestRevision")).isEqualTo(1);
            assertThat(old.getBoolean("manifestChangedSince")).isTrue();

            int second = lanes.deploy(manifest, "");
            Lanes.awaitState(second, "FINISHED", WITHIN);
            assertOn(lanes, "lane-01", "3");
            JsonPath next = Lanes.deployment(second);
            assertThat(next.getInt("manifestRevision")).isEqualTo(2);
            assertThat(next.getBoolean("manifestChangedSince")).isFalse();
        }
    }
}
