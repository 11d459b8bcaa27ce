package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.ActionRecord;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One system, one driver, against the real hawkBit with simulated lanes, where it takes channels' releases: a
 * promotion lets the superseded deployment finish first and cancels nothing in hawkBit, as the devices' own history
 * shows. The rest of these rules (a second deployment waits, a device in two types, mixed, given up and taken again,
 * vanished, take again and the budget, a halted release, superseding by a promotion or a new release) is proven as a
 * flow, in seconds: {@code deployment/flow} ({@code DriversFlowTest}, {@code ChannelFlowTest}, {@code BudgetFlowTest},
 * {@code ReleaseFlowTest}).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class OneDriverEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);
    static final List<String> ROLES = List.of("lane", "term-a", "term-b", "display");

    private static String run(int deployment, String system, String field) {
        return runs(deployment).getString("find { it.system == '" + system + "' }." + field);
    }

    private static void awaitRun(int deployment, String system, String state) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() -> state.equals(run(deployment, system, "state")));
    }

    private static void release(int channelId, String body) {
        Api.admin().body(body).put("/qawk/v1/fleets/" + channelId).then().statusCode(200);
    }

    /** A held device finishes now: what had to happen while it was under way has been seen. */
    private static void letGo(Lanes lanes, String system, String role) {
        lanes.behaviour(system, role, Behaviour.succeed());
    }

    private static void assertNoCancel(Lanes lanes, String system) {
        for (String role : ROLES) {
            assertThat(lanes.devices.history(lanes.id(system, role))).as(role)
                    .noneMatch(a -> a.kind() == ActionRecord.Kind.CANCEL);
        }
    }

    private static void assertWholeOn(Lanes lanes, String system, String version) {
        assertThat(lanes.installedSetId(lanes.id(system, "lane"))).isEqualTo(lanes.set("app:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "term-a"))).isEqualTo(lanes.set("term:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "term-b"))).isEqualTo(lanes.set("term:" + version));
        assertThat(lanes.installedSetId(lanes.id(system, "display"))).isEqualTo(lanes.set("disp:" + version));
    }

    @Test
    void aPromotionWhileTheChannelsDeploymentIsUnderWayLetsItFinishFirst() {
        try (Lanes lanes = new Lanes("one-promo-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "dev").system("lane-02", "c01", "beta");
            int beta = lanes.channel("beta", "");
            int dev = lanes.channel("dev", "\"promotesTo\": " + beta);
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.behaviour("lane-02", "display", Behaviour.hold());
            int to2 = lanes.manifest("2.0", "2");
            int back1 = lanes.manifest("1.0", "1");

            release(beta, "{\"manifestId\": " + to2 + "}");
            int old = channelView(beta).getInt("release.deploymentId");
            awaitRun(old, "lane-02", "RUNNING");
            release(dev, "{\"manifestId\": " + back1 + "}");
            await().atMost(WITHIN).until(() -> "COMPLETE".equals(channelView(dev).getString("release.state")));
            Api.admin().body("{}").post("/qawk/v1/fleets/" + dev + "/promote").then().statusCode(200);
            int fresh = channelView(beta).getInt("release.deploymentId");
            assertThat(fresh).isNotEqualTo(old);

            await().atMost(WITHIN).until(() -> String.valueOf(run(fresh, "lane-02", "reason")).startsWith("waiting for deployment"));
            letGo(lanes, "lane-02", "display");
            awaitState(fresh, "FINISHED", WITHIN);
            assertThat(run(old, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertThat(run(fresh, "lane-02", "state")).isEqualTo("SUCCEEDED");
            assertNoCancel(lanes, "lane-02");
            assertWholeOn(lanes, "lane-02", "1");
        }
    }
}
