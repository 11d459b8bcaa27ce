package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.deployment;
import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.sync;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * A system whose way to the manifest breaks a compatibility rule, as a flow: it is held (pending, assigned nothing,
 * {@code held: …} in its reason, plan and preview), counted as held, while the deployment updates the others and
 * stays running; it starts by itself once what it runs keeps the rule.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class HeldFlowTest {

    static final String WHY = "app 2 speaks the v2 terminal protocol";

    /** The flow's type with the rule "the lane computer on app 2 needs its terminals on term 2". */
    private static void appTwoNeedsTermTwo(Flow f) {
        Api.admin().body("""
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane"},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}],
                 "rules": [{"if": {"lane": "%1$sapp:[2,)"}, "then": {"terminal": "%1$sterm:[2,)"}, "why": "%2$s"}]}
                """.formatted(f.prefix, WHY)).put("/qawk/v1/systemtypes/" + f.typeId).then().statusCode(200);
    }

    /** The display and the lane computer to 2 (order 1, order 2), the terminals left as they are. */
    private static int appAndDisplayOnly(Flow f) {
        return Api.admin().body("""
                {"name": "%sapp-only-2.0", "systemTypeId": %d, "components": [
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(f.prefix, f.typeId, f.set("disp:2"), f.set("app:2"))).post("/qawk/v1/manifests")
                .then().statusCode(201).extract().path("id");
    }

    /**
     * Moved from RulesEndToEndTest: lane-02's terminals run term:2, lane-01's term:1; app:2 with terminals left
     * untouched would leave lane-01 on app:2 with term:1 at order 2. lane-01 is held, sent nothing and counted;
     * lane-02 is updated; the deployment stays running. Given term:2, lane-01 starts by itself.
     */
    @Test
    void aSystemWhoseWayBreaksARuleIsHeldAndCountedWhileTheOtherIsUpdated() {
        Flow f = new Flow("fh-held-").withSetsAndType().system("lane-01", "c01").system("lane-02", "c01");
        appTwoNeedsTermTwo(f);
        f.hawkbit.preinstall(f.set("term:2"), List.of(f.id("lane-02", "term-a"), f.id("lane-02", "term-b")));
        f.discovered(2);
        int manifest = appAndDisplayOnly(f);
        String held = "held: lane-01 would run " + f.prefix + "app:2 with " + f.id("lane-01", "term-a") + " on "
                + f.prefix + "term:1 at order 2 (rules[0] needs terminal on " + f.prefix + "term:[2,)) — " + WHY;
        JsonPath preview = Api.admin().body("{\"name\": \"" + f.prefix + "preview\", \"manifestId\": " + manifest + "}")
                .post("/qawk/v1/systemdeployments/plan").then().statusCode(200).extract().jsonPath();
        assertThat(preview.getString("systems.find { it.system == 'lane-01' }.waiting")).isEqualTo(held);
        assertThat(preview.getBoolean("systems.find { it.system == 'lane-02' }.held")).isFalse();
        int d = f.deploy(manifest, "\"maxParallel\": 2");

        tickUntil(8, "lane-02 updated", () -> "SUCCEEDED".equals(run(d, "lane-02", "state")));
        tick(3);
        assertThat(run(d, "lane-01", "state")).isEqualTo("PENDING");
        assertThat(run(d, "lane-01", "reason")).startsWith("held: ").isEqualTo(held);
        for (String role : Flow.ROLES) {
            assertThat(f.assignedSets("lane-01", role)).as("lane-01 %s was assigned nothing", role).isEmpty();
        }
        assertThat(f.installed("lane-02", "lane")).isEqualTo("app:2");
        assertThat(f.installed("lane-02", "display")).isEqualTo("disp:2");
        assertThat(f.assignedSets("lane-02", "term-a")).as("left untouched").isEmpty();
        JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + d + "/plan").then().statusCode(200)
                .extract().jsonPath();
        assertThat(plan.getBoolean("systems.find { it.system == 'lane-01' }.held")).isTrue();
        assertThat(plan.getString("systems.find { it.system == 'lane-01' }.waiting")).isEqualTo(held);
        assertThat(plan.getBoolean("systems.find { it.system == 'lane-02' }.held")).isFalse();
        JsonPath words = deployment(d);
        assertThat(words.getString("state")).isEqualTo("RUNNING");
        assertThat(words.getInt("counts.held")).isEqualTo(1);
        assertThat(words.getString("summary")).isEqualTo("1 of 2 updated, 0 rolled back, 1 held");
        assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                .getString("find { it.id == " + d + " }.summary")).isEqualTo("1 of 2 updated, 0 rolled back, 1 held");

        // its terminals given term:2 (by someone, in hawkBit): its way keeps the rule, it starts by itself
        f.hawkbit.preinstall(f.set("term:2"), List.of(f.id("lane-01", "term-a"), f.id("lane-01", "term-b")));
        sync();
        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("SUCCEEDED");
        assertThat(f.installed("lane-01", "lane")).isEqualTo("app:2");
        assertThat(deployment(d).getInt("counts.held")).isZero();
    }
}
