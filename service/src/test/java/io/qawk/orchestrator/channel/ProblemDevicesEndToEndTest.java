package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rule 4 against the real hawkBit: a device that matches a component but forms no system (no system key, or two
 * components) is nobody's standalone device. It gets neither half of a release, and its channel lists it.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ProblemDevicesEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);

    @Test
    void aDeviceThatFormsNoSystemGetsNeitherHalfOfTheReleaseAndItsChannelListsIt() {
        try (Lanes lanes = new Lanes("fl-prob-").withSetsAndType()) {
            String p = lanes.prefix;
            lanes.system("lane-01", "c01", "dev").standalone("kiosk-1", "dev")
                    // a terminal whose system key is still to be set by hand: it must not get the kiosks' set
                    .device("term-nokey", Map.of("device_type", "terminal", "centerid", "c01", "channel", p + "dev"))
                    // matches both components of the type below
                    .device("twin", Map.of("device_type", "twin", "device", "twin-sys", "model", p + "m", "vendor", p + "v",
                            "channel", p + "dev"));
            Api.admin().body("""
                    {"name": "%1$stwins", "systemKey": "attribute.device", "components": [
                       {"componentType": "by-model", "match": "attribute.model==%1$sm"},
                       {"componentType": "by-vendor", "match": "attribute.vendor==%1$sv"}]}
                    """.formatted(p)).post("/qawk/v1/systemtypes").then().statusCode(201);
            int dev = lanes.channel("dev", "");
            lanes.discovered(1);
            long solo = lanes.hawkbit.createDistributionSet(p + "solo", "2");

            Api.admin().body("{\"distributionSetId\": " + solo + ", \"manifestId\": " + lanes.manifest("2.0", "2") + "}")
                    .put("/qawk/v1/fleets/" + dev).then().statusCode(200);

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .until(() -> "COMPLETE".equals(channelView(dev).getString("release.state")));
            JsonPath done = channelView(dev);
            assertThat(done.getString("release.devicesSummary")).isEqualTo("1 of 1 devices on " + p + "solo:2, 0 failed");
            assertThat(done.getString("release.systemsSummary")).isEqualTo("1 of 1 systems updated, 0 rolled back");
            assertThat(lanes.installedSetId(p + "kiosk-1")).isEqualTo(solo);
            assertThat(lanes.hawkbit.actions(p + "term-nokey")).isEmpty();
            assertThat(lanes.hawkbit.actions(p + "twin")).isEmpty();

            assertThat(done.getInt("problemDevices")).isEqualTo(2);
            assertThat(done.getList("problems.controllerId")).containsExactly(p + "term-nokey", p + "twin");
            assertThat(done.getList("problems.problem")).containsExactly("NO_SYSTEM_KEY", "AMBIGUOUS_COMPONENT");
            assertThat(done.getString("problems[0].systemType")).isEqualTo(p + "lane");
            assertThat(done.getString("problems[0].why")).contains("attribute.device");
            assertThat(done.getString("problems[1].componentType")).isEqualTo("by-model,by-vendor");
        }
    }
}
