package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.swupdate.SwuImage;
import io.qawk.orchestrator.testkit.swupdate.SwupdateDevices;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.SwupdateFleet;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.LaneFleet.awaitState;
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
        SwupdateFleet.assumeAvailable();
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
        try (SwupdateFleet fleet = new SwupdateFleet("swu-o-")) {
            fleet.set("app", "1.0", fleet.installs("app", "1.0", "app_version"));
            long app2 = fleet.set("app", "2.0", fleet.installs("app", "2.0", "app_version"));
            fleet.set("disp", "1.0", fleet.installs("disp", "1.0", "disp_version"));
            long disp2 = fleet.set("disp", "2.0", fleet.installs("disp", "2.0", "disp_version"));
            fleet.type().system("lane-1").system("lane-2");
            fleet.onVersion1();
            fleet.discovered(2);

            int d = fleet.deploy(fleet.manifest("2.0", app2, disp2), "\"maxParallel\": 2");

            JsonPath end = awaitState(d, "FINISHED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            SwupdateDevices devices = fleet.devices;
            for (String system : List.of("lane-1", "lane-2")) {
                String ctrl = fleet.id(system, "ctrl");
                String display = fleet.id(system, "display");
                assertThat(fleet.run(d, system).getString("state")).as(system).isEqualTo("SUCCEEDED");
                List<SwupdateDevices.Installed> c = devices.installed(ctrl);
                List<SwupdateDevices.Installed> s = devices.installed(display);
                // (a swupdate that died mid-install is started again, as systemd would, and installs once more)
                assertThat(c).extracting(SwupdateDevices.Installed::set).as(ctrl).isNotEmpty()
                        .containsOnly(fleet.label("app", "2.0"));
                assertThat(s).extracting(SwupdateDevices.Installed::set).as(display).isNotEmpty()
                        .containsOnly(fleet.label("disp", "2.0"));
                assertThat(s.get(0).at()).as("the display installs after its controller")
                        .isAfter(c.get(c.size() - 1).at());
                assertThat(devices.reboots(ctrl)).as(ctrl).isEqualTo(1);
                assertThat(devices.reboots(display)).as(display).isEqualTo(1);
                assertThat(fleet.hawkbit.attributes(ctrl)).containsEntry("app_version", "2.0")
                        .containsEntry("device", "swu-o-" + system);
                assertThat(fleet.hawkbit.attributes(display)).containsEntry("disp_version", "2.0");
                assertThat(fleet.installedInHawkbit(ctrl)).isEqualTo(fleet.label("app", "2.0"));
                assertThat(fleet.installedInHawkbit(display)).isEqualTo(fleet.label("disp", "2.0"));
                assertThat(events(d, fleet.run(d, system).getInt("id"))).extracting(e -> e.get("message")).contains(
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
        try (SwupdateFleet fleet = new SwupdateFleet("swu-v-")) {
            fleet.set("app", "1.0", fleet.installs("app", "1.0", "app_version"));
            long app2 = fleet.set("app", "2.0", SwuImage.installs(fleet.label("app", "2.0"), Map.of()));
            fleet.set("disp", "1.0", fleet.installs("disp", "1.0", "disp_version"));
            long disp2 = fleet.set("disp", "2.0", fleet.installs("disp", "2.0", "disp_version"));
            fleet.type().system("lane-3");
            fleet.onVersion1();
            fleet.discovered(1);
            String ctrl = fleet.id("lane-3", "ctrl");
            String display = fleet.id("lane-3", "display");

            int d = fleet.deploy(fleet.manifest("2.0", app2, disp2), "\"verifyTimeoutSeconds\": 10");

            JsonPath end = awaitState(d, "FAILED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("0 of 1 updated, 1 rolled back");
            JsonPath run = fleet.run(d, "lane-3");
            assertThat(run.getString("state")).isEqualTo("ROLLED_BACK");
            assertThat(run.getString("reason")).startsWith("at order 1: " + ctrl + " finished but does not report"
                    + " attribute.app_version==2.0 (reports 1.0)");
            assertThat(fleet.devices.installed(ctrl)).extracting(SwupdateDevices.Installed::set)
                    .containsExactly(fleet.label("app", "2.0"), fleet.label("app", "1.0"));
            assertThat(fleet.devices.reboots(ctrl)).isEqualTo(2);
            assertThat(fleet.installedInHawkbit(ctrl)).isEqualTo(fleet.label("app", "1.0"));
            assertThat(fleet.devices.installed(display)).as("order 2 never reached").isEmpty();
            assertThat(fleet.hawkbit.actions(display)).as("only the offline 1.0").hasSize(1);
        }
    }
}
