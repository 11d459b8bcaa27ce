package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.LaneFleet;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.qawk.orchestrator.testsupport.LaneFleet.channelView;
import static io.qawk.orchestrator.testsupport.LaneFleet.runs;
import static io.qawk.orchestrator.testsupport.LaneFleet.sync;
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
    private static void version3(LaneFleet fleet) {
        for (String name : List.of("app", "term", "disp")) {
            fleet.sets.put(name + ":3", fleet.hawkbit.createDistributionSet(fleet.prefix + name, "3"));
        }
    }

    /** Edits the manifest through the API to the given version's sets. */
    private static void edit(LaneFleet fleet, int manifestId, String name, String version) {
        Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1},
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(fleet.prefix + name, fleet.typeId, fleet.set("term:" + version), fleet.set("disp:" + version),
                fleet.set("app:" + version))).put("/qawk/v1/manifests/" + manifestId).then().statusCode(200);
    }

    /** Re-imports the manifest as Mender YAML, as CI does on every change, pointing at the given version's sets. */
    private static void reimport(LaneFleet fleet, String name, String version) {
        String p = fleet.prefix;
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
                .body("result", org.hamcrest.Matchers.equalTo("updated"));
    }

    private static JsonPath awaitRelease(int channelId, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(channelView(channelId).getString("release.state")));
        return channelView(channelId);
    }

    private void assertOn(LaneFleet fleet, String system, String version) {
        assertThat(fleet.installedSetId(fleet.id(system, "lane"))).as(system + " lane").isEqualTo(fleet.set("app:" + version));
        assertThat(fleet.installedSetId(fleet.id(system, "term-a"))).as(system + " term-a").isEqualTo(fleet.set("term:" + version));
        assertThat(fleet.installedSetId(fleet.id(system, "display"))).as(system + " display").isEqualTo(fleet.set("disp:" + version));
    }

    @Test
    void aSystemThatJoinsAfterAReimportGetsTheManifestAsItWasWhenTheDeploymentStarted() {
        try (LaneFleet fleet = new LaneFleet("rev-join-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "dev").system("lane-02", "c02", "elsewhere");
            version3(fleet);
            int dev = fleet.channel("dev", "");
            fleet.discovered(2);
            int manifest = fleet.manifest("2.0", "2");
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            int deployment = awaitRelease(dev, "COMPLETE").getInt("release.deploymentId");
            assertOn(fleet, "lane-01", "2");

            // CI re-imports the manifest (a new build) after dev's deployment ran
            reimport(fleet, "2.0", "3");

            // lane-02 joins dev: its deployment reopens and gives it what lane-01 got
            fleet.move("lane-02", "dev");
            sync();
            await().atMost(WITHIN).until(() -> runs(deployment).getList("system").contains("lane-02"));
            JsonPath done = awaitRelease(dev, "COMPLETE");
            assertOn(fleet, "lane-02", "2");

            assertThat(done.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(done.getBoolean("release.manifestChangedSince")).isTrue();
            JsonPath d = LaneFleet.deployment(deployment);
            assertThat(d.getInt("manifestRevision")).isEqualTo(1);
            assertThat(d.getBoolean("manifestChangedSince")).isTrue();
        }
    }

    @Test
    void promotionCarriesTheRevisionThatPassedTheGateNotAnEditMadeSince() {
        try (LaneFleet fleet = new LaneFleet("rev-promo-").withSetsAndType()) {
            fleet.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta");
            version3(fleet);
            int beta = fleet.channel("beta", "");
            int dev = fleet.channel("dev", "\"promotesTo\": " + beta);
            fleet.discovered(2);
            int manifest = fleet.manifest("2.0", "2");
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            JsonPath devDone = awaitRelease(dev, "COMPLETE");

            edit(fleet, manifest, "2.0", "3");
            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200);
            JsonPath betaDone = awaitRelease(beta, "COMPLETE");
            assertOn(fleet, "lane-02", "2");

            assertThat(devDone.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(devDone.getBoolean("release.manifestChangedSince")).isFalse();
            assertThat(betaDone.getInt("release.manifestId")).isEqualTo(manifest);
            assertThat(betaDone.getInt("release.manifestRevision")).isEqualTo(1);
            assertThat(betaDone.getBoolean("release.manifestChangedSince")).isTrue();
            assertThat(channelView(dev).getBoolean("release.manifestChangedSince")).isTrue();

            // a new release to dev takes the edit: revision 2
            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + dev).then().statusCode(200);
            JsonPath again = awaitRelease(dev, "COMPLETE");
            assertOn(fleet, "lane-01", "3");
            assertThat(again.getInt("release.manifestRevision")).isEqualTo(2);
            assertThat(again.getBoolean("release.manifestChangedSince")).isFalse();
        }
    }

    @Test
    void aStartFreezesANewRevisionOnlyWhenTheManifestChanged() {
        try (LaneFleet fleet = new LaneFleet("rev-num-").withSetsAndType()) {
            fleet.system("lane-01", "c01");
            version3(fleet);
            fleet.discovered(1);
            int manifest = fleet.manifest("2.0", "2");
            String lane = "\"systems\": [\"lane-01\"]"; // a real scope: a start with nothing in scope is refused
            int draft = Api.admin().body("{\"name\": \"draft\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
            assertThat(LaneFleet.deployment(draft).getString("manifestRevision")).isNull();
            assertThat(LaneFleet.deployment(draft).getBoolean("manifestChangedSince")).isFalse();
            Api.admin().post("/qawk/v1/systemdeployments/" + draft + "/abort").then().statusCode(200);

            int first = fleet.deploy(manifest, lane);
            LaneFleet.awaitState(first, "FINISHED", WITHIN);
            int second = fleet.deploy(manifest, lane);
            LaneFleet.awaitState(second, "FINISHED", WITHIN);
            assertThat(LaneFleet.deployment(second).getInt("manifestRevision")).isEqualTo(1);

            edit(fleet, manifest, "2.0", "2"); // the same content again: nothing to freeze
            int third = fleet.deploy(manifest, lane);
            LaneFleet.awaitState(third, "FINISHED", WITHIN);
            assertThat(LaneFleet.deployment(third).getInt("manifestRevision")).isEqualTo(1);
            assertThat(LaneFleet.deployment(first).getBoolean("manifestChangedSince")).isFalse();

            reimport(fleet, "2.0", "3");
            assertThat(LaneFleet.deployment(first).getBoolean("manifestChangedSince")).isTrue();
            int fourth = fleet.deploy(manifest, lane);
            LaneFleet.awaitState(fourth, "FINISHED", WITHIN);
            assertThat(LaneFleet.deployment(fourth).getInt("manifestRevision")).isEqualTo(2);
            assertThat(LaneFleet.deployment(fourth).getBoolean("manifestChangedSince")).isFalse();
            assertThat(LaneFleet.deployment(third).getInt("manifestRevision")).isEqualTo(1);
        }
    }

    @Test
    void takingASystemAgainAfterAnEditUsesTheOldRevisionAndANewDeploymentTheNewOne() {
        try (LaneFleet fleet = new LaneFleet("rev-again-").withSetsAndType()) {
            fleet.system("lane-01", "c01");
            version3(fleet);
            fleet.behaviour("lane-01", "lane", Behaviour.failFor(fleet.set("app:2")));
            fleet.discovered(1);
            int manifest = fleet.manifest("2.0", "2");
            int first = fleet.deploy(manifest, "\"maxFailed\": 0");
            LaneFleet.awaitState(first, "FAILED", WITHIN);

            edit(fleet, manifest, "2.0", "3");
            fleet.behaviour("lane-01", "lane", Behaviour.succeed());
            int runId = runs(first).getInt("[0].id");
            Api.admin().body("{\"reason\": \"PSU replaced\"}")
                    .post("/qawk/v1/systemdeployments/" + first + "/runs/" + runId + "/retry").then().statusCode(200);
            LaneFleet.awaitState(first, "FINISHED", WITHIN);
            assertOn(fleet, "lane-01", "2");
            JsonPath old = LaneFleet.deployment(first);
            assertThat(old.getInt("manifestRevision")).isEqualTo(1);
            assertThat(old.getBoolean("manifestChangedSince")).isTrue();

            int second = fleet.deploy(manifest, "");
            LaneFleet.awaitState(second, "FINISHED", WITHIN);
            assertOn(fleet, "lane-01", "3");
            JsonPath next = LaneFleet.deployment(second);
            assertThat(next.getInt("manifestRevision")).isEqualTo(2);
            assertThat(next.getBoolean("manifestChangedSince")).isFalse();
        }
    }
}
