package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.qawk.orchestrator.demo.DemoLanes.SystemTypeBody;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.DeviceSpec;

/** The demo fleet's layout, checked without a hawkBit. */
class DemoLanesTest {

    private final List<DeviceSpec> devices = DemoLanes.devices(Duration.ofSeconds(2));

    @Test
    void controllerIdsAreUniqueAndStable() {
        Set<String> ids = devices.stream().map(DeviceSpec::controllerId).collect(Collectors.toSet());
        assertThat(ids).hasSize(devices.size());
        assertThat(DemoLanes.devices(Duration.ofSeconds(2))).isEqualTo(devices);
    }

    @Test
    void eightLanesInThreeCentresEachALaneComputerTwoTerminalsAndADisplayButOne() {
        Map<String, List<DeviceSpec>> bySystem = new TreeMap<>(devices.stream()
                .filter(d -> d.attributes().containsKey("device"))
                .collect(Collectors.groupingBy(d -> d.attributes().get("device"))));
        assertThat(bySystem.keySet()).containsExactly("device-01", "device-02", "device-03", "device-04",
                "device-05", "device-06", "device-07", "device-08");
        bySystem.forEach((system, members) -> {
            Map<String, Long> types = members.stream()
                    .collect(Collectors.groupingBy(d -> d.attributes().get("device_type"), TreeMap::new,
                            Collectors.counting()));
            Map<String, Long> expected = system.equals(DemoLanes.INCOMPLETE_SYSTEM)
                    ? Map.of("device1", 1L, "device2", 2L)
                    : Map.of("device1", 1L, "device2", 2L, "device3", 1L);
            assertThat(types).as(system).isEqualTo(expected);
            // one system, one centre
            assertThat(members.stream().map(d -> d.attributes().get("centerid")).distinct()).as(system).hasSize(1);
        });
        Map<String, Long> systemsPerCentre = bySystem.entrySet().stream()
                .collect(Collectors.groupingBy(e -> e.getValue().get(0).attributes().get("centerid"), TreeMap::new,
                        Collectors.counting()));
        assertThat(systemsPerCentre).isEqualTo(Map.of("c01", 3L, "c02", 3L, "c03", 2L));
    }

    @Test
    void onlyTheFailingLanesDisplayFailsAndOnlyForTheNewDisplayFirmware() {
        List<DeviceSpec> failing = devices.stream()
                .filter(d -> d.behaviour().mode() != Behaviour.Mode.SUCCEED)
                .toList();
        assertThat(failing).extracting(DeviceSpec::controllerId).containsExactly("device-05-display");
        Behaviour b = failing.get(0).behaviour();
        assertThat(failing.get(0).attributes()).containsEntry("device", DemoLanes.FAILING_SYSTEM)
                .containsEntry("device_type", "device3");
        assertThat(b.failsFor(null, "device3-fw", "2.0")).isTrue();
        assertThat(b.failsFor(null, "device3-fw", "1.0")).isFalse();
        assertThat(b.failsFor(null, "app", "2.0")).isFalse();
        assertThat(devices).allSatisfy(d -> assertThat(d.behaviour().delay()).isEqualTo(Duration.ofSeconds(2)));
    }

    /** The tour's health query ({@link DemoLanes#HEALTH}) holds on every lane computer, so a soak keeps healthy lanes. */
    @Test
    void everyLaneComputerReportsThatItIsScoring() {
        List<DeviceSpec> laneComputers = devices.stream()
                .filter(d -> "device1".equals(d.attributes().get("device_type"))).toList();
        assertThat(laneComputers).hasSize(DemoLanes.LANES)
                .allSatisfy(d -> assertThat(d.attributes()).as(d.controllerId()).containsEntry("lane_state", "scoring"));
        assertThat(DemoLanes.HEALTH).isEqualTo("attribute.lane_state==scoring");
    }

    @Test
    void problemsAndStandaloneDevicesExist() {
        // matched by the device2 component but without a system key: a problem of the system type
        DeviceSpec stray = devices.stream().filter(d -> d.controllerId().equals(DemoLanes.STRAY_DEVICE)).findFirst()
                .orElseThrow();
        assertThat(stray.attributes()).doesNotContainKey("device").containsEntry("device_type", "device2");

        // devices no component matches: standalone
        Set<String> componentTypes = DemoLanes.systemType().components().stream()
                .map(SystemTypeBody.Component::componentType).collect(Collectors.toSet());
        List<DeviceSpec> standalone = devices.stream()
                .filter(d -> !componentTypes.contains(d.attributes().get("device_type"))).toList();
        assertThat(standalone).hasSize(DemoLanes.KIOSKS).allSatisfy(d -> {
            assertThat(d.attributes()).doesNotContainKey("device").containsKey("centerid");
        });
    }

    @Test
    void systemTypeIsTheProductsDeviceSystem() {
        SystemTypeBody type = DemoLanes.systemType();
        assertThat(type.name()).isEqualTo("device-system");
        assertThat(type.systemKey()).isEqualTo("attribute.device");
        assertThat(type.groupKey()).isEqualTo("attribute.centerid");
        for (SystemTypeBody.Component c : type.components()) {
            assertThat(c.match()).isEqualTo("attribute.device_type==" + c.componentType());
        }
    }

    @Test
    void manifestUsesCreatedSetsAndPutsTheLaneComputerFirstAsTheRuleAsks() {
        assertThat(new HashSet<>(DemoLanes.SETS)).hasSize(6);
        assertThat(DemoLanes.SETS).extracting(DemoLanes.SetRef::label).containsExactly("app:1.0", "app:2.0",
                "device2-fw:1.0", "device2-fw:2.0", "device3-fw:1.0", "device3-fw:2.0");
        assertThat(DemoLanes.MANIFEST_PARTS).allSatisfy(p -> assertThat(DemoLanes.SETS).contains(p.set()));
        assertThat(DemoLanes.MANIFEST_PARTS).extracting(DemoLanes.ManifestPart::componentType)
                .containsExactlyInAnyOrder("device1", "device2", "device3");
        Map<String, Integer> orders = DemoLanes.MANIFEST_PARTS.stream()
                .collect(Collectors.toMap(DemoLanes.ManifestPart::componentType, DemoLanes.ManifestPart::order));
        // rules[0]: terminals on device2-fw 2.0 need the lane computer on app 2.0, so it goes before them;
        // rules[1]: a display on device3-fw 2.0 needs its terminals on device2-fw 2.0, so they go before it
        assertThat(orders).isEqualTo(Map.of("device1", 1, "device2", 2, "device3", 3));
    }

    @Test
    void theSystemTypeHasOneRuleTheManifestMeetsAndTheGuardOnlyWatches() throws Exception {
        SystemTypeBody type = DemoLanes.systemType();
        assertThat(type.guard()).isEqualTo("watch");
        assertThat(type.rules()).containsExactly(DemoLanes.RULE, DemoLanes.DISPLAY_RULE);
        assertThat(DemoLanes.RULE.when()).isEqualTo(Map.of("device2", "device2-fw:[2.0,)"));
        assertThat(DemoLanes.RULE.then()).isEqualTo(Map.of("device1", "app:[2.0,)"));
        assertThat(DemoLanes.DISPLAY_RULE.when()).isEqualTo(Map.of("device3", "device3-fw:[2.0,)"));
        assertThat(DemoLanes.DISPLAY_RULE.then()).isEqualTo(Map.of("device2", "device2-fw:[2.0,)"));
        assertThat(type.rules()).allSatisfy(r -> assertThat(r.why()).isNotBlank());

        // the destination keeps it: the manifest's new sets meet both sides
        Map<String, DemoLanes.SetRef> to = DemoLanes.MANIFEST_PARTS.stream()
                .collect(Collectors.toMap(DemoLanes.ManifestPart::componentType, DemoLanes.ManifestPart::set));
        assertThat(to.get("device2")).isEqualTo(DemoLanes.DEVICE2_FW_2);
        assertThat(to.get("device1")).isEqualTo(DemoLanes.APP_2);

        // the API's shape: "if", not the record's "when"
        JsonNode json = new ObjectMapper().valueToTree(type);
        assertThat(json.path("rules").get(0).path("if").path("device2").asText()).isEqualTo("device2-fw:[2.0,)");
        assertThat(json.path("rules").get(0).path("then").path("device1").asText()).isEqualTo("app:[2.0,)");
        assertThat(json.path("rules").get(0).has("when")).isFalse();
        assertThat(json.path("rules").get(1).path("if").path("device3").asText()).isEqualTo("device3-fw:[2.0,)");
        assertThat(json.path("guard").asText()).isEqualTo("watch");
    }

    @Test
    void everyComponentStartsOnOneButTheDriftedLanesDisplayWhichBreaksTheSecondRule() {
        Map<String, DemoLanes.SetRef> first = new TreeMap<>();
        devices.forEach(d -> DemoLanes.firstSet(d).ifPresent(s -> first.put(d.controllerId(), s)));
        assertThat(first).hasSize(devices.size() - DemoLanes.KIOSKS);
        assertThat(first).containsEntry(DemoLanes.DRIFTED_SYSTEM + "-display", DemoLanes.DEVICE3_FW_2)
                .containsEntry(DemoLanes.DRIFTED_SYSTEM + "-term-1", DemoLanes.DEVICE2_FW_1)
                .containsEntry(DemoLanes.DRIFTED_SYSTEM + "-lane", DemoLanes.APP_1)
                .containsEntry(DemoLanes.STRAY_DEVICE, DemoLanes.DEVICE2_FW_1);
        assertThat(first.entrySet()).filteredOn(e -> !e.getKey().equals(DemoLanes.DRIFTED_SYSTEM + "-display"))
                .allSatisfy(e -> assertThat(e.getValue().version()).as(e.getKey()).isEqualTo("1.0"));
        // the drifted lane is neither the one whose display fails 2.0 nor the one without a display
        assertThat(DemoLanes.DRIFTED_SYSTEM).isNotIn(DemoLanes.FAILING_SYSTEM, DemoLanes.INCOMPLETE_SYSTEM);
    }

    @Test
    void theWaitingRolloutTakesTheNewTerminalFirmwareToEveryTerminalOnly() {
        DemoLanes.RolloutRef r = DemoLanes.ROLLOUT;
        assertThat(r.set()).isEqualTo(DemoLanes.DEVICE2_FW_2);
        assertThat(DemoLanes.SETS).contains(r.set());
        // it reaches exactly the devices the type's device2 component matches: every terminal, and nothing else
        String device2Match = DemoLanes.systemType().components().stream()
                .filter(c -> c.componentType().equals("device2")).findFirst().orElseThrow().match();
        assertThat(r.targetFilterQuery()).isEqualTo(device2Match);
        assertThat(r.groups()).isPositive();
        // ... and the rule it would break is the type's: its set meets the rule's "if" on device2
        assertThat(DemoLanes.RULE.when()).containsKey("device2");
        assertThat(DemoLanes.RULE.when().get("device2")).startsWith(r.set().name() + ":");
    }
}
