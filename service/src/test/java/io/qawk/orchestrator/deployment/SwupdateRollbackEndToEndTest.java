package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.swupdate.SwuImage;
import io.qawk.orchestrator.testkit.swupdate.SwupdateDevices;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.SwupdateLanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 44 on real SWUpdate devices: a device whose install fails sends its whole system back, mirrored (its own order
 * first), and the devices' own state shows it. The device that failed is sent its previous set again like every
 * other device: SWUpdate's {@code closed/failure} is the client's word, not proof that it never left its set (a
 * single-copy device that failed mid-write runs neither set), and installing the set it runs is harmless. A device
 * whose install succeeded but whose new image does not boot (SWUpdate started with {@code -c 3} on the old one) fails
 * the same way, after its reboot.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class SwupdateRollbackEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @BeforeEach
    void realDevices() {
        SwupdateLanes.assumeAvailable();
    }

    @Test
    void aDisplayWhoseInstallFailsSendsTheSystemBackDisplayFirstAndIsItselfSentItsSetAgain() {
        try (SwupdateLanes lanes = new SwupdateLanes("swu-r-")) {
            lanes.set("app", "1.0", lanes.installs("app", "1.0", "app_version"));
            long app2 = lanes.set("app", "2.0", lanes.installs("app", "2.0", "app_version"));
            lanes.set("disp", "1.0", lanes.installs("disp", "1.0", "disp_version"));
            long disp2 = lanes.set("disp", "2.0", SwuImage.fails(lanes.label("disp", "2.0"), "panel not found"));
            lanes.type().system("lane-4");
            lanes.onVersion1();
            lanes.discovered(1);
            String ctrl = lanes.id("lane-4", "ctrl");
            String display = lanes.id("lane-4", "display");
            SwupdateDevices devices = lanes.devices;

            int d = lanes.deploy(lanes.manifest("2.0", app2, disp2), "");

            JsonPath end = awaitState(d, "FAILED", WITHIN);
            assertThat(end.getString("summary")).as(() -> "the display's log:\n" + devices.log(display))
                    .isEqualTo("0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started");
            JsonPath run = lanes.run(d, "lane-4");
            assertThat(run.getString("state")).isEqualTo("ROLLED_BACK");
            assertThat(run.getString("reason")).isEqualTo("1 device(s) failed at order 2"
                    + " -- rolled back: 2 of 2 devices on their previous set again");

            // SWUpdate's failure is closed/failure with a general detail, at once (no reboot)
            long failed = lanes.hawkbit.actions(display).stream().mapToLong(a -> a.path("id").asLong()).sorted()
                    .skip(1).findFirst().orElseThrow();
            assertThat(lanes.hawkbit.actionStatus(display, failed)).extracting(st -> st.path("messages").toString())
                    .anyMatch(m -> m.contains("No suitable .swu image found"));

            // the display failed before it changed anything, then was sent 1.0 again: one install, one reboot
            List<SwupdateDevices.Installed> shown = devices.installed(display);
            assertThat(shown).extracting(SwupdateDevices.Installed::set).containsExactly(lanes.label("disp", "1.0"));
            assertThat(devices.reboots(display)).isEqualTo(1);
            assertThat(devices.identify(display)).containsEntry("disp_version", "1.0");
            assertThat(lanes.installedInHawkbit(display)).isEqualTo(lanes.label("disp", "1.0"));

            // the controller went forward and back on its own, after the display was back (mirrored)
            List<SwupdateDevices.Installed> ctrlInstalled = devices.installed(ctrl);
            assertThat(ctrlInstalled).extracting(SwupdateDevices.Installed::set).contains(lanes.label("app", "2.0"))
                    .last().isEqualTo(lanes.label("app", "1.0"));
            assertThat(ctrlInstalled.get(ctrlInstalled.size() - 1).at()).as("the controller goes back after the display")
                    .isAfter(shown.get(0).at());
            assertThat(devices.identify(ctrl)).containsEntry("app_version", "1.0");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.attributes(ctrl)).containsEntry("app_version", "1.0"));
            assertThat(lanes.installedInHawkbit(ctrl)).isEqualTo(lanes.label("app", "1.0"));
        }
    }

    /**
     * The display installs its 2.0, but the image does not come up after the reboot: the device is back on its 1.0
     * (it reports disp_version 1.0 again) and SWUpdate, started with {@code -c 3}, sends {@code closed/failure}. Qawk
     * takes the failure like any other: the system goes back, the display is sent its 1.0 again and the controller,
     * already on 2.0, goes back after it.
     */
    @Test
    void aDisplayWhoseNewImageDoesNotBootIsBackOnItsOldOneAndTheSystemGoesBack() {
        try (SwupdateLanes lanes = new SwupdateLanes("swu-b-")) {
            lanes.set("app", "1.0", lanes.installs("app", "1.0", "app_version"));
            long app2 = lanes.set("app", "2.0", lanes.installs("app", "2.0", "app_version"));
            lanes.set("disp", "1.0", lanes.installs("disp", "1.0", "disp_version"));
            long disp2 = lanes.set("disp", "2.0", lanes.installs("disp", "2.0", "disp_version"));
            lanes.type().system("lane-5");
            lanes.onVersion1();
            lanes.discovered(1);
            String ctrl = lanes.id("lane-5", "ctrl");
            String display = lanes.id("lane-5", "display");
            SwupdateDevices devices = lanes.devices;
            devices.failNextBoot(display);

            int d = lanes.deploy(lanes.manifest("2.0", app2, disp2), "");

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).until(() ->
                    Set.of("FINISHED", "FAILED", "ABORTED").contains(Lanes.deployment(d).getString("state")));
            JsonPath end = Lanes.deployment(d);
            assertThat(end.getString("state")).as("deployment %d: %s; the display's log:%n%s", d,
                    end.getString("summary"), devices.log(display)).isEqualTo("FAILED");
            assertThat(end.getString("summary")).isEqualTo("0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started");
            JsonPath run = lanes.run(d, "lane-5");
            assertThat(run.getString("state")).isEqualTo("ROLLED_BACK");
            assertThat(run.getString("reason")).isEqualTo("1 device(s) failed at order 2"
                    + " -- rolled back: 2 of 2 devices on their previous set again");
            assertThat(events(d, run.getInt("id"))).as("the run's timeline").containsSubsequence(
                    "device " + display + " failed",
                    "device " + display + " is on its previous set again",
                    "device " + ctrl + " is on its previous set again");

            // hawkBit has SWUpdate's -c 3 report on the 2.0 action
            long failed = lanes.hawkbit.actions(display).stream().mapToLong(a -> a.path("id").asLong()).sorted()
                    .skip(1).findFirst().orElseThrow();
            assertThat(lanes.hawkbit.actionStatus(display, failed)).extracting(st -> st.path("messages").toString())
                    .anyMatch(m -> m.contains("Update Failed."));

            // the display installed 2.0, could not boot it, came back on 1.0, and was sent 1.0 again
            String disp1 = lanes.label("disp", "1.0");
            assertThat(devices.failedBoots(display)).containsExactly(lanes.label("disp", "2.0"));
            assertThat(devices.installed(display)).extracting(SwupdateDevices.Installed::set)
                    .startsWith(lanes.label("disp", "2.0")).endsWith(disp1);
            assertThat(devices.reboots(display)).as("the failed boot and the one after going back").isEqualTo(2);
            assertThat(devices.running(display, disp1)).isEqualTo(disp1);
            assertThat(devices.identify(display)).containsEntry("disp_version", "1.0");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.attributes(display)).containsEntry("disp_version", "1.0"));
            assertThat(lanes.installedInHawkbit(display)).isEqualTo(disp1);

            // the controller went to 2.0 and, after the display, back to 1.0
            String app1 = lanes.label("app", "1.0");
            assertThat(devices.failedBoots(ctrl)).isEmpty();
            assertThat(devices.running(ctrl, app1)).isEqualTo(app1);
            assertThat(devices.installed(ctrl)).extracting(SwupdateDevices.Installed::set)
                    .contains(lanes.label("app", "2.0")).last().isEqualTo(app1);
            assertThat(devices.identify(ctrl)).containsEntry("app_version", "1.0");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.attributes(ctrl)).containsEntry("app_version", "1.0"));
            assertThat(lanes.installedInHawkbit(ctrl)).isEqualTo(app1);
        }
    }

    private static List<String> events(int deployment, int runId) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/events")
                .then().statusCode(200).extract().jsonPath().getList("message");
    }
}
