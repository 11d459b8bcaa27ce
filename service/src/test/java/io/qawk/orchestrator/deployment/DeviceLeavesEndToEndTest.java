package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static io.qawk.orchestrator.testsupport.Lanes.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A device that leaves its system, or is given another set by someone else, while its system's run is under way:
 * the run fails safe, says which device and why, and does not send that device back.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class DeviceLeavesEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

    private static String run(int deployment, String field) {
        return runs(deployment).getString("[0]." + field);
    }

    @Test
    void aDeviceThatMovesToAnotherSystemMidRunFailsTheRunSafeAndKeepsWhatItGot() {
        try (Lanes lanes = new Lanes("left-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            lanes.behaviour("lane-07", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(10)));
            int d = lanes.deploy(lanes.manifest("2.0", "2"), "");
            String termB = lanes.id("lane-07", "term-b");
            await().atMost(WITHIN).until(() -> lanes.installedSetId(termB) == lanes.set("term:2"));

            lanes.devices.setAttributes(termB, Map.of("device", "lane-09"));
            await().atMost(WITHIN).until(() -> "lane-09".equals(lanes.hawkbit.attributes(termB).get("device")));
            sync();

            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "state")).isEqualTo("ROLLED_BACK");
            assertThat(run(d, "reason")).isEqualTo("at order 1: " + termB + " left the system during the update -- rolled back: "
                    + "2 of 2 devices on their previous set again");
            assertThat(lanes.installedSetId(termB)).as("not sent back: it is another system's now").isEqualTo(lanes.set("term:2"));
            assertThat(lanes.hawkbit.actions(termB)).hasSize(2); // the preinstall and ours, no rollback
            assertThat(lanes.installedSetId(lanes.id("lane-07", "term-a"))).isEqualTo(lanes.set("term:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-07", "display"))).isEqualTo(lanes.set("disp:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-07", "lane"))).isEqualTo(lanes.set("app:1"));
        }
    }

    @Test
    void aDeviceGivenAnotherSetBySomeoneElseStopsTheRunAndIsNotSentBackOverIt() {
        try (Lanes lanes = new Lanes("taken-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            String termA = lanes.id("lane-07", "term-a");
            lanes.behaviour("lane-07", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(12)));
            long other = lanes.hawkbit.createDistributionSet(lanes.prefix + "other", "9.9");
            int d = lanes.deploy(lanes.manifest("2.0", "2"), "");
            await().atMost(WITHIN).until(() -> String.valueOf(runs(d).getList("[0].components.terminal.state")).contains("ASSIGNED")
                    && lanes.hawkbit.actions(termA).size() == 2);

            // someone in the console (hawkBit answers 409 when the device's poll changes the target at that moment)
            await().atMost(WITHIN).ignoreExceptions().until(() -> lanes.hawkbit.assign(other, List.of(termA)) != null);

            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "state")).isEqualTo("ROLLED_BACK");
            assertThat(run(d, "reason")).startsWith("at order 1: " + termA + " was given " + lanes.prefix
                    + "other:9.9 in hawkBit by someone else -- rolled back:");
            await().atMost(WITHIN).until(() -> lanes.installedSetId(termA) == other);
            assertThat(lanes.hawkbit.actions(termA)).as("the preinstall, ours, the other person's; none to go back")
                    .hasSize(3);
            assertThat(lanes.installedSetId(lanes.id("lane-07", "term-b"))).isEqualTo(lanes.set("term:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-07", "display"))).isEqualTo(lanes.set("disp:1"));
        }
    }
}
