package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * Simulated devices report device, device_type and centerid to a real hawkBit; the service discovers the systems
 * they form. Attribute values carry a prefix of this test so that other tests' devices never match.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DiscoveryEndToEndTest {

    private static final String P = "disc-";
    private DeviceSimulator devices;
    private HawkbitFixtures hawkbit;
    private int typeId;

    @Inject
    InventorySync sync;

    private static DeviceSpec device(String id, String system, String type, String centre) {
        return DeviceSpec.of(P + id, system == null
                ? Map.of("device_type", P + type, "centerid", centre)
                : Map.of("device", system, "device_type", P + type, "centerid", centre));
    }

    /** Once per class, but in a @BeforeEach: the application's HTTP port is known to RestAssured only there. */
    @BeforeEach
    void devicesReport() {
        if (devices != null) {
            return;
        }
        devices = new DeviceSimulator(SharedHawkbit.get());
        hawkbit = new HawkbitFixtures(SharedHawkbit.get());
        devices.addDevices(List.of(
                device("07-lane", "device-07", "device1", "c01"),
                device("07-term-a", "device-07", "device2", "c01"),
                device("07-term-b", "device-07", "device2", "c01"),
                device("07-display", "device-07", "device3", "c01"),
                device("08-lane", "device-08", "device1", "c01"),
                device("08-term-a", "device-08", "device2", "c01"),
                device("08-term-b", "device-08", "device2", "c01"),
                device("11-lane", "device-11", "device1", "c02"),
                device("no-key", null, "device1", "c02"),
                device("unrelated", "device-07", "printer", "c01")));
        devices.addDevices(List.of(DeviceSpec.of(P + "both", Map.of(
                "device", "device-07", "device_type", P + "device1", "extra", P + "display", "centerid", "c01"))));

        typeId = Api.admin().body("""
                {"name": "discovery", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "device1", "match": "attribute.device_type==%1$sdevice1"},
                   {"componentType": "device2", "match": "attribute.device_type==%1$sdevice2"},
                   {"componentType": "device3", "match": "attribute.device_type==%1$sdevice3,attribute.extra==%1$sdisplay"}]}
                """.formatted(P)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");

        // hawkBit has every device's attributes once they have polled once: wait for that, not for a fixed time
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(hawkbit.findTargetIds("attribute.device_type==" + P + "*")).hasSize(11));
        Api.syncInventory();
    }

    @AfterAll
    void stop() {
        devices.close();
    }

    @Test
    void systemsAreWhatTheDevicesReport() {
        JsonPath page = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems")
                .then().statusCode(200).extract().jsonPath();

        assertThat(page.getInt("total")).isEqualTo(3);
        assertThat(page.getList("content.system")).containsExactly("device-07", "device-08", "device-11");
        assertThat(page.getMap("content[0]")).containsEntry("devices", 4).containsEntry("group", "c01")
                .containsEntry("mixed", false).containsEntry("fleet", null)
                .containsEntry("components", Map.of("device1", 1, "device2", 2, "device3", 1));
        assertThat(page.getMap("content[1]")).containsEntry("devices", 3)
                .containsEntry("components", Map.of("device1", 1, "device2", 2));
        assertThat(page.getMap("content[2]")).containsEntry("devices", 1).containsEntry("group", "c02");
        assertThat(page.getInt("problemDevices")).isEqualTo(2);
    }

    @Test
    void aSystemListsItsDevices() {
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems/device-08").then().statusCode(200)
                .body("devices", equalTo(3))
                .body("group", equalTo("c01"))
                .body("content.controllerId", Matchers.contains(P + "08-lane", P + "08-term-a", P + "08-term-b"))
                .body("content[1].componentType", equalTo("device2"))
                .body("content[0].updateStatus", equalTo("registered"))
                .body("content[0].lastPollAt", Matchers.notNullValue());
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems/device-99").then().statusCode(404);
    }

    @Test
    void devicesWithoutAKeyOrWithTwoComponentsAreListedAsProblems() {
        JsonPath problems = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/problems")
                .then().statusCode(200).extract().jsonPath();
        assertThat(problems.getList("content.controllerId")).containsExactlyInAnyOrder(P + "no-key", P + "both");
        assertThat(problems.getString("content.find { it.controllerId == '" + P + "both' }.problem"))
                .isEqualTo("AMBIGUOUS_COMPONENT");
        assertThat(problems.getString("content.find { it.controllerId == '" + P + "both' }.componentType"))
                .isEqualTo("device1,device3");
        assertThat(problems.getString("content.find { it.controllerId == '" + P + "no-key' }.problem"))
                .isEqualTo("NO_SYSTEM_KEY");
    }

    @Test
    void pagingAndCentreFilter() {
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?offset=1&limit=1").then().statusCode(200)
                .body("total", equalTo(3)).body("content", hasSize(1)).body("content[0].system", equalTo("device-08"));
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?group=c02").then().statusCode(200)
                .body("total", equalTo(1)).body("content[0].system", equalTo("device-11"));
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?limit=0").then().statusCode(400)
                .body("errors[0].field", equalTo("limit"));
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?offset=x&limit=9999999999").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", Matchers.contains("offset", "limit"));
        Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/problems?limit=1.5").then().statusCode(400)
                .body("errors[0].field", equalTo("limit"));
    }

    @Test
    void aDeviceThatChangesItsSystemMovesWithinOneSync() {
        String moving = P + "11-lane";
        devices.setAttributes(moving, Map.of("device", "device-12"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> "device-12".equals(hawkbit.attributes(moving).get("device")));

        Api.syncInventory();

        JsonPath page = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?group=c02")
                .then().statusCode(200).extract().jsonPath();
        assertThat(page.getList("content.system")).containsExactly("device-12");

        devices.setAttributes(moving, Map.of("device", "device-11"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> "device-11".equals(hawkbit.attributes(moving).get("device")));
        Api.syncInventory();
    }

    /** The move the bulk check finds only through its second query shape: between two systems of one centre. */
    @Test
    void aDeviceThatMovesToAnotherSystemOfItsCentreMovesWithinOneSync() {
        String moving = P + "08-term-b";
        devices.setAttributes(moving, Map.of("device", "device-07"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> "device-07".equals(hawkbit.attributes(moving).get("device")));
        try {
            Api.syncInventory();

            JsonPath system = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems/device-07")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(system.getList("content.controllerId")).contains(moving);
            JsonPath old = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems/device-08")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(old.getList("content.controllerId")).doesNotContain(moving).hasSize(2);
        } finally {
            devices.setAttributes(moving, Map.of("device", "device-08"));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                    .until(() -> "device-08".equals(hawkbit.attributes(moving).get("device")));
            Api.syncInventory();
        }
    }

    /**
     * Sync requests in a burst (a script, or an impatient operator pressing again) make at most two passes: the one
     * under way and one that starts after all of them, which the rest join; not a queue of ten passes against hawkBit.
     */
    @Test
    void syncRequestsInABurstJoinThePassWaitingToStart() throws Exception {
        List<CompletableFuture<InventorySync.SyncResult>> burst = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            burst.add(sync.requestPass());
        }
        assertThat(burst.stream().distinct().count()).as("passes for 10 requests").isLessThanOrEqualTo(2);
        CompletableFuture.allOf(burst.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertThat(burst.get(9).get().devices()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void inventoryStatusSaysHowTheLastSyncWent() {
        Api.viewer().get("/qawk/v1/inventory").then().statusCode(200)
                .body("lastError", equalTo(null))
                .body("lastCompletedAt", Matchers.notNullValue());
        Api.anonymous().get("/q/health/ready").then().statusCode(200);
    }
}
