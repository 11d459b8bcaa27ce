package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.swupdate.SwuImage;
import io.qawk.orchestrator.testkit.swupdate.SwupdateDevices;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.SwupdateLanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 44: Qawk updating systems of real SWUpdate devices (Debian's swupdate, its suricatta hawkBit client) against
 * the real hawkBit: the devices tell Qawk what they are through {@code identify}, report an install only after they
 * rebooted, and report their new version only because the update's post-install step rewrote their
 * {@code identify}; a manifest's {@code verify} is what proves it.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class SwupdateEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @BeforeEach
    void realDevices() {
        SwupdateLanes.assumeAvailable();
    }

    private static List<Map<String, Object>> events(int deployment, int runId) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/events")
                .then().statusCode(200).extract().jsonPath().getList("");
    }

    /**
     * Two systems of a controller and a display: the manifest's two orders go out in order in each system, which the
     * devices' own install times show (the display installs after its controller did, rebooted and reported
     * app_version 2.0), and each device is done only once it reports its new version after its reboot.
     */
    @Test
    void twoSystemsTakeTheTwoOrdersInOrderAndEachDeviceReportsItsNewVersionAfterItsReboot() {
        try (SwupdateLanes lanes = new SwupdateLanes("swu-o-")) {
            lanes.set("app", "1.0", lanes.installs("app", "1.0", "app_version"));
            long app2 = lanes.set("app", "2.0", lanes.installs("app", "2.0", "app_version"));
            lanes.set("disp", "1.0", lanes.installs("disp", "1.0", "disp_version"));
            long disp2 = lanes.set("disp", "2.0", lanes.installs("disp", "2.0", "disp_version"));
            lanes.type().system("lane-1").system("lane-2");
            lanes.onVersion1();
            lanes.discovered(2);

            int d = lanes.deploy(lanes.manifest("2.0", app2, disp2), "\"maxParallel\": 2");

            JsonPath end = awaitState(d, "FINISHED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            SwupdateDevices devices = lanes.devices;
            for (String system : List.of("lane-1", "lane-2")) {
                String ctrl = lanes.id(system, "ctrl");
                String display = lanes.id(system, "display");
                assertThat(lanes.run(d, system).getString("state")).as(system).isEqualTo("SUCCEEDED");
                List<SwupdateDevices.Installed> c = devices.installed(ctrl);
                List<SwupdateDevices.Installed> s = devices.installed(display);
                // (a swupdate that died mid-install is started again, as systemd would, and installs once more)
                assertThat(c).extracting(SwupdateDevices.Installed::set).as(ctrl).isNotEmpty()
                        .containsOnly(lanes.label("app", "2.0"));
                assertThat(s).extracting(SwupdateDevices.Installed::set).as(display).isNotEmpty()
                        .containsOnly(lanes.label("disp", "2.0"));
                assertThat(s.get(0).at()).as("the display installs after its controller")
                        .isAfter(c.get(c.size() - 1).at());
                assertThat(devices.reboots(ctrl)).as(ctrl).isEqualTo(1);
                assertThat(devices.reboots(display)).as(display).isEqualTo(1);
                assertThat(lanes.hawkbit.attributes(ctrl)).containsEntry("app_version", "2.0")
                        .containsEntry("device", "swu-o-" + system);
                assertThat(lanes.hawkbit.attributes(display)).containsEntry("disp_version", "2.0");
                assertThat(lanes.installedInHawkbit(ctrl)).isEqualTo(lanes.label("app", "2.0"));
                assertThat(lanes.installedInHawkbit(display)).isEqualTo(lanes.label("disp", "2.0"));
                assertThat(events(d, lanes.run(d, system).getInt("id"))).extracting(e -> e.get("message")).contains(
                        "device " + ctrl + " reports attribute.app_version==2.0",
                        "device " + display + " reports attribute.disp_version==2.0");
            }
        }
    }

    /**
     * An update that installs but does not rewrite the device's {@code identify}: SWUpdate reports success after the
     * reboot, hawkBit says the device runs the new set, and only the manifest's {@code verify} sees that the device
     * still says 1.0. The system goes back; the controller, which did install, installs its 1.0 set again, and the
     * display was never touched.
     */
    @Test
    void anUpdateThatLeavesIdentifyAsItWasIsCaughtByVerifyAndTheSystemGoesBack() {
        try (SwupdateLanes lanes = new SwupdateLanes("swu-v-")) {
            lanes.set("app", "1.0", lanes.installs("app", "1.0", "app_version"));
            long app2 = lanes.set("app", "2.0", SwuImage.installs(lanes.label("app", "2.0"), Map.of()));
            lanes.set("disp", "1.0", lanes.installs("disp", "1.0", "disp_version"));
            long disp2 = lanes.set("disp", "2.0", lanes.installs("disp", "2.0", "disp_version"));
            lanes.type().system("lane-3");
            lanes.onVersion1();
            lanes.discovered(1);
            String ctrl = lanes.id("lane-3", "ctrl");
            String display = lanes.id("lane-3", "display");

            int d = lanes.deploy(lanes.manifest("2.0", app2, disp2), "\"verifyTimeoutSeconds\": 10");

            JsonPath end = awaitState(d, "FAILED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started");
            JsonPath run = lanes.run(d, "lane-3");
            assertThat(run.getString("state")).isEqualTo("ROLLED_BACK");
            assertThat(run.getString("reason")).startsWith("at order 1: " + ctrl + " finished but does not report"
                    + " attribute.app_version==2.0 (reports 1.0)");
            assertThat(lanes.devices.installed(ctrl)).extracting(SwupdateDevices.Installed::set)
                    .containsExactly(lanes.label("app", "2.0"), lanes.label("app", "1.0"));
            assertThat(lanes.devices.reboots(ctrl)).isEqualTo(2);
            assertThat(lanes.installedInHawkbit(ctrl)).isEqualTo(lanes.label("app", "1.0"));
            assertThat(lanes.devices.installed(display)).as("order 2 never reached").isEmpty();
            assertThat(lanes.hawkbit.actions(display)).as("only the offline 1.0").hasSize(1);
        }
    }
}
