package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.systemtype.DeviceKey;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MembershipRulesTest {

    private static final DeviceKey SYSTEM = DeviceKey.parse("attribute.device").orElseThrow();
    private static final DeviceKey GROUP = DeviceKey.parse("attribute.centerid").orElseThrow();

    private static DeviceRecord device(String id, Map<String, String> attributes, Map<String, String> metadata) {
        return new DeviceRecord(id, id, "in_sync", null, null, null, null, null, null, attributes, metadata);
    }

    @Test
    void aDeviceWithAKeyAndOneComponentFormsItsSystem() {
        Map<String, List<String>> matched = Map.of("t1", List.of("device2"));
        Map<String, DeviceRecord> devices = Map.of("t1", device("t1", Map.of("device", "device-07", "centerid", "c01"), null));

        assertThat(MembershipRules.classify(1, SYSTEM, GROUP, matched, devices))
                .containsExactly(new Membership(1, "t1", "device2", "device-07", "c01", null));
    }

    @Test
    void devicesWithoutTheKeyOrWithTwoComponentsAreProblemsNotDropped() {
        Map<String, List<String>> matched = new LinkedHashMap<>();
        matched.put("nokey", List.of("device1"));
        matched.put("blank", List.of("device1"));
        matched.put("both", List.of("device1", "device2"));
        Map<String, DeviceRecord> devices = Map.of(
                "nokey", device("nokey", Map.of("centerid", "c01"), null),
                "blank", device("blank", Map.of("device", " "), null),
                "both", device("both", Map.of("device", "device-07"), null));

        List<Membership> out = MembershipRules.classify(1, SYSTEM, GROUP, matched, devices);

        assertThat(out).extracting(Membership::controllerId, Membership::problem).containsExactly(
                Tuple.tuple("nokey", Membership.Problem.NO_SYSTEM_KEY),
                Tuple.tuple("blank", Membership.Problem.NO_SYSTEM_KEY),
                Tuple.tuple("both", Membership.Problem.AMBIGUOUS_COMPONENT));
        assertThat(out.get(2).componentType()).isEqualTo("device1,device2");
    }

    @Test
    void metadataKeysAreReadFromMetadataAndAMissingGroupIsNull() {
        DeviceKey lane = DeviceKey.parse("metadata.lane").orElseThrow();
        Map<String, List<String>> matched = Map.of("t1", List.of("display"), "t2", List.of("display"));
        Map<String, DeviceRecord> devices = Map.of(
                "t1", device("t1", Map.of("lane", "wrong-place"), Map.of("lane", "lane-7")),
                "t2", device("t2", Map.of("lane", "lane-8"), null));

        List<Membership> out = MembershipRules.classify(3, lane, null, matched, devices).stream()
                .sorted(Comparator.comparing(Membership::controllerId)).toList();

        assertThat(out.get(0)).isEqualTo(new Membership(3, "t1", "display", "lane-7", null, null));
        assertThat(out.get(1).problem()).isEqualTo(Membership.Problem.NO_SYSTEM_KEY);
    }

    @Test
    void aDeviceThatVanishedDuringTheSyncIsLeftOut() {
        assertThat(MembershipRules.classify(1, SYSTEM, GROUP, Map.of("gone", List.of("device1")), Map.of())).isEmpty();
    }
}
