package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.LaneFleet;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.LaneFleet.awaitState;
import static io.qawk.orchestrator.testsupport.LaneFleet.runs;
import static io.qawk.orchestrator.testsupport.LaneFleet.sync;
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
        try (LaneFleet fleet = new LaneFleet("left-").withSetsAndType()) {
            fleet.system("lane-07", "c01");
            fleet.discovered(1);
            fleet.preinstall("1");
            fleet.behaviour("lane-07", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(10)));
            int d = fleet.deploy(fleet.manifest("2.0", "2"), "");
            String termB = fleet.id("lane-07", "term-b");
            await().atMost(WITHIN).until(() -> fleet.installedSetId(termB) == fleet.set("term:2"));

            fleet.devices.setAttributes(termB, Map.of("device", "lane-09"));
            await().atMost(WITHIN).until(() -> "lane-09".equals(fleet.hawkbit.attributes(termB).get("device")));
            sync();

            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "state")).isEqualTo("ROLLED_BACK");
            assertThat(run(d, "reason")).isEqualTo("at order 1: " + termB + " left the system during the update -- rolled back: "
                    + "2 of 2 devices on their previous set again");
            assertThat(fleet.installedSetId(termB)).as("not sent back: it is another system's now").isEqualTo(fleet.set("term:2"));
            assertThat(fleet.hawkbit.actions(termB)).hasSize(2); // the preinstall and ours, no rollback
            assertThat(fleet.installedSetId(fleet.id("lane-07", "term-a"))).isEqualTo(fleet.set("term:1"));
            assertThat(fleet.installedSetId(fleet.id("lane-07", "display"))).isEqualTo(fleet.set("disp:1"));
            assertThat(fleet.installedSetId(fleet.id("lane-07", "lane"))).isEqualTo(fleet.set("app:1"));
        }
    }

    @Test
    void aDeviceGivenAnotherSetBySomeoneElseStopsTheRunAndIsNotSentBackOverIt() {
        try (LaneFleet fleet = new LaneFleet("taken-").withSetsAndType()) {
            fleet.system("lane-07", "c01");
            fleet.discovered(1);
            fleet.preinstall("1");
            String termA = fleet.id("lane-07", "term-a");
            fleet.behaviour("lane-07", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(12)));
            long other = fleet.hawkbit.createDistributionSet(fleet.prefix + "other", "9.9");
            int d = fleet.deploy(fleet.manifest("2.0", "2"), "");
            await().atMost(WITHIN).until(() -> String.valueOf(runs(d).getList("[0].components.terminal.state")).contains("ASSIGNED")
                    && fleet.hawkbit.actions(termA).size() == 2);

            // someone in the console (hawkBit answers 409 when the device's poll changes the target at that moment)
            await().atMost(WITHIN).ignoreExceptions().until(() -> fleet.hawkbit.assign(other, List.of(termA)) != null);

            awaitState(d, "FAILED", WITHIN);
            assertThat(run(d, "state")).isEqualTo("ROLLED_BACK");
            assertThat(run(d, "reason")).startsWith("at order 1: " + termA + " was given " + fleet.prefix
                    + "other:9.9 in hawkBit by someone else -- rolled back:");
            await().atMost(WITHIN).until(() -> fleet.installedSetId(termA) == other);
            assertThat(fleet.hawkbit.actions(termA)).as("the preinstall, ours, the other person's; none to go back")
                    .hasSize(3);
            assertThat(fleet.installedSetId(fleet.id("lane-07", "term-b"))).isEqualTo(fleet.set("term:1"));
            assertThat(fleet.installedSetId(fleet.id("lane-07", "display"))).isEqualTo(fleet.set("disp:1"));
        }
    }
}
