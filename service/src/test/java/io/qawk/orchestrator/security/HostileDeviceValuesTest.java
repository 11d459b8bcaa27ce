package io.qawk.orchestrator.security;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.hostile.HostileProfile;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9: values devices report (here the system key {@code device}) never change a hawkBit query. Devices report
 * FIQL metacharacters, wildcards, quotes, markup and unicode as their system; discovery shows exactly those systems,
 * the systems endpoints answer for them, a deployment over them works, and decoy devices whose values a broken query
 * would match are never touched.
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
class HostileDeviceValuesTest {

    static final List<String> HOSTILE = List.of("x,controllerId==*", "a;b", "\"quoted\"", "*",
            "<script>alert(1)</script>", "שלום 😀 \\ back'slash");
    /** Systems a query built by pasting the values would also match. */
    static final List<String> DECOYS = List.of("x", "a", "quoted", "decoy_*");

    @Test
    void hostileSystemNamesAreJustNames() {
        HawkbitProxy.heal();
        try (Lanes lanes = new Lanes("hv-").withSetsAndType()) {
            Map<String, String> systemOf = new LinkedHashMap<>();
            List<DeviceSpec> specs = new ArrayList<>();
            int n = 0;
            for (String system : HOSTILE) {
                n++;
                for (String role : List.of("terminal", "lane")) {
                    String id = "hv-s" + n + "-" + role;
                    systemOf.put(id, system);
                    specs.add(DeviceSpec.of(id, Map.of("device", system, "device_type", "hv-" + role, "centerid", "c01")));
                }
            }
            List<String> decoyIds = new ArrayList<>();
            for (int i = 0; i < DECOYS.size(); i++) {
                String id = "hv-decoy" + i + "-terminal";
                decoyIds.add(id);
                specs.add(DeviceSpec.of(id, Map.of("device", DECOYS.get(i), "device_type", "hv-terminal", "centerid", "c01")));
            }
            lanes.devices.addDevices(specs);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.findTargetIds("attribute.device_type==hv-*")).hasSize(specs.size()));
            Lanes.sync();

            JsonPath systems = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems?limit=100")
                    .then().statusCode(200).extract().jsonPath();
            List<String> expected = new ArrayList<>(HOSTILE);
            expected.addAll(DECOYS);
            assertThat(systems.<String>getList("content.system")).containsExactlyInAnyOrderElementsOf(expected);
            for (String system : HOSTILE) {
                JsonPath one = Api.viewer().urlEncodingEnabled(false)
                        .get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems/"
                                + URLEncoder.encode(system, StandardCharsets.UTF_8).replace("+", "%20"))
                        .then().statusCode(200).extract().jsonPath();
                assertThat(one.getString("system")).isEqualTo(system);
                assertThat(one.getInt("devices")).as(system).isEqualTo(2);
            }

            // a deployment over exactly the hostile systems
            int manifest = lanes.manifest("2.0", "2");
            StringBuilder names = new StringBuilder();
            for (String system : HOSTILE) {
                names.append(names.length() == 0 ? "" : ", ").append(json(system));
            }
            int id = lanes.deploy(manifest, "\"maxParallel\": 6, \"systems\": [" + names + "]");
            JsonPath done = Lanes.awaitState(id, "FINISHED", Duration.ofSeconds(180));
            assertThat(done.getString("summary")).isEqualTo(HOSTILE.size() + " of " + HOSTILE.size()
                    + " updated, 0 rolled back");
            assertThat(Lanes.runs(id).<String>getList("system")).containsExactlyInAnyOrderElementsOf(HOSTILE);
            for (Map.Entry<String, String> device : systemOf.entrySet()) {
                String set = device.getKey().endsWith("lane") ? "app:2" : "term:2";
                assertThat(lanes.installedSetId(device.getKey())).as(device.getValue()).isEqualTo(lanes.set(set));
            }
            for (String decoy : decoyIds) {
                assertThat(lanes.hawkbit.actions(decoy)).as("decoy %s untouched", decoy).isEmpty();
            }
        }
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
