package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.systemtype.DeviceKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AttributeCheckTest {

    static final List<DeviceKey> KEYS = List.of(DeviceKey.parse("attribute.device").orElseThrow(),
            DeviceKey.parse("attribute.centerid").orElseThrow());

    static DeviceRecord device(String id, String system, String centre) {
        Map<String, String> attributes = new java.util.HashMap<>();
        if (system != null) {
            attributes.put("device", system);
        }
        if (centre != null) {
            attributes.put("centerid", centre);
        }
        return new DeviceRecord(id, id, "in_sync", null, null, null, null, null, null, attributes, null);
    }

    @Test
    void devicesWithTheSameValuesShareOneClause() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "lane-7", "c01"),
                device("b", "lane-7", "c01"), device("c", "lane-8", "c01")), 3000, 100);

        assertThat(plan.queries()).hasSize(1);
        assertThat(plan.queries().get(0).fiql()).isEqualTo(
                "(attribute.device==\"lane-7\";attribute.centerid==\"c01\";controllerId=in=(\"a\",\"b\")),"
                        + "(attribute.device==\"lane-8\";attribute.centerid==\"c01\";controllerId=in=(\"c\"))");
        assertThat(plan.queries().get(0).devices()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(plan.uncheckable()).isEmpty();
    }

    @Test
    void devicesLackingAValueAreReadOneByOne() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "lane-7", null),
                device("b", null, "c01"), device("c", "lane-8", "c01")), 3000, 100);

        assertThat(plan.uncheckable()).containsExactly("a", "b");
        assertThat(plan.queries().get(0).devices()).containsExactly("c");
    }

    @Test
    void queriesStayWithinTheLengthAndPageLimitsAndCoverEveryDeviceOnce() {
        List<DeviceRecord> devices = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            devices.add(device("controller-" + i, "lane-" + (i / 4), "c" + (i % 7)));
        }

        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, devices, 3000, 100);

        Set<String> covered = new HashSet<>();
        for (AttributeCheck.Query q : plan.queries()) {
            assertThat(q.fiql().length()).isLessThanOrEqualTo(3000);
            assertThat(q.devices().size()).isLessThanOrEqualTo(500);
            q.devices().forEach(d -> assertThat(covered.add(d)).as("covered once: %s", d).isTrue());
            q.devices().forEach(d -> assertThat(q.fiql()).contains("\"" + d + "\""));
        }
        assertThat(covered).hasSize(2000);
        AttributeCheck.Plan wide = AttributeCheck.plan(KEYS, devices, 1_000_000, 100_000);
        assertThat(wide.queries()).hasSize(4);
    }

    @Test
    void aQueryHoldsAtMostTheAllowedNumberOfValueGroups() {
        List<DeviceRecord> devices = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            devices.add(device("controller-" + i, "lane-" + (i / 4), "c1"));
        }

        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, devices, 100_000, 3);

        assertThat(plan.queries()).hasSize(4);
        assertThat(plan.queries().get(0).fiql().split("attribute.device==", -1)).hasSize(4);
        assertThat(plan.queries().get(0).devices()).hasSize(12);
    }

    @Test
    void hostileValuesAreQuotedNotInterpreted() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "x\",controllerId==\"*", "c;1")), 3000, 100);

        assertThat(plan.queries().get(0).fiql()).isEqualTo("(attribute.device=in=(\"x\\\",controllerId==\\\"*\");"
                + "attribute.centerid==\"c;1\";controllerId=in=(\"a\"))");
    }
}
