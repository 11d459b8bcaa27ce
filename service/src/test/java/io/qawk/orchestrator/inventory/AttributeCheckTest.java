package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.testkit.scale.RsqlEvaluator;
import io.qawk.orchestrator.query.Rsql;
import io.qawk.orchestrator.systemtype.DeviceKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AttributeCheckTest {

    static final List<DeviceKey> KEYS = List.of(DeviceKey.parse("attribute.device").orElseThrow(),
            DeviceKey.parse("attribute.centerid").orElseThrow());

    static DeviceRecord device(String id, String system, String centre) {
        Map<String, String> attributes = new HashMap<>();
        if (system != null) {
            attributes.put("device", system);
        }
        if (centre != null) {
            attributes.put("centerid", centre);
        }
        return new DeviceRecord(id, id, "in_sync", null, null, null, null, null, null, attributes, null);
    }

    @Test
    void aCentresSystemsShareOneRowAndValuesOfARowAreSeparatedByColumns() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "lane-7", "c01"),
                device("b", "lane-7", "c01"), device("c", "lane-8", "c01"), device("d", "lane-9", "c02")), 3000);

        assertThat(plan.queries()).extracting(AttributeCheck.Query::fiql).containsExactly(
                "attribute.device=in=(\"lane-7\",\"lane-8\");attribute.centerid==\"c01\"",
                "attribute.device=in=(\"lane-9\");attribute.centerid==\"c02\"",
                "attribute.device=in=(\"lane-7\")",
                "attribute.device=in=(\"lane-8\")");
        assertThat(plan.queries().get(0).expected()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(plan.queries().get(3).expected()).containsExactly("c");
        assertThat(plan.checkable()).containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(plan.uncheckable()).isEmpty();
    }

    @Test
    void devicesLackingAValueAreReadOneByOne() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "lane-7", null),
                device("b", null, "c01"), device("c", "lane-8", "c01")), 3000);

        assertThat(plan.uncheckable()).containsExactly("a", "b");
        assertThat(plan.checkable()).containsExactly("c");
        assertThat(plan.queries()).singleElement().satisfies(q -> assertThat(q.expected()).containsExactly("c"));
    }

    @Test
    void anAnswerShowsMissingDevicesAndDevicesThatMovedIn() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "lane-7", "c01"),
                device("b", "lane-8", "c01"), device("c", "lane-9", "c02")), 3000);
        AttributeCheck.Query row = plan.queries().get(0);

        assertThat(plan.changedIn(row, List.of("a", "b"))).isEmpty();
        assertThat(plan.changedIn(row, List.of("a"))).containsExactly("b");
        assertThat(plan.changedIn(row, List.of("a", "b", "c", "stranger"))).containsExactly("c");
    }

    @Test
    void queriesStayWithinOnePageAndTheLengthAndCostAboutTwoRequestsPer500DevicesPlusAConstant() {
        List<DeviceRecord> devices = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            devices.add(device("controller-" + i, "lane-" + (i / 4), "c" + (i / 400)));
        }

        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, devices, 3000);

        for (AttributeCheck.Query q : plan.queries()) {
            assertThat(q.fiql().length()).isLessThanOrEqualTo(3000);
            assertThat(q.expected().size()).isLessThanOrEqualTo(500);
        }
        // rows of at most ⌈√5000⌉ = 71 systems within a centre, one column per value of a row: 2 × 50 + 71
        assertThat(plan.queries()).hasSize(171);
        assertThat(plan.queries().size()).isLessThanOrEqualTo(2 * 20_000 / 500 + 2 * 71);
        // 100,000 devices: a row per centre (100 systems), 100 colours of 1,000 devices (2 queries each)
        assertThat(AttributeCheck.plan(KEYS, lanes(100_000, 400), 3000).queries()).hasSize(250 + 2 * 100);
        // 2,000 devices in 5 centres: the constant 2·√(systems) dominates
        assertThat(AttributeCheck.plan(KEYS, lanes(2_000, 400), 3000).queries().size())
                .isLessThanOrEqualTo(2 * 2_000 / 500 + 2 * 23);
        AttributeCheck.Plan narrow = AttributeCheck.plan(KEYS, devices, 400);
        narrow.queries().forEach(q -> assertThat(q.fiql().length()).isLessThanOrEqualTo(400));
    }

    private static List<DeviceRecord> lanes(int devices, int perCentre) {
        List<DeviceRecord> out = new ArrayList<>();
        for (int i = 0; i < devices; i++) {
            out.add(device("controller-" + i, "lane-" + (i / 4), "c" + (i / perCentre)));
        }
        return out;
    }

    /**
     * The property the sync relies on: whatever happened to the devices' key values since the inventory was taken,
     * the answers hawkBit gives to the plan's queries (evaluated here as hawkBit would) flag exactly the devices whose
     * values changed. Seeded random fleets and changes; moves inside a centre, across centres, to new systems, lost
     * keys and vanished targets.
     */
    @Test
    void answersFlagExactlyTheDevicesWhoseValuesChanged() {
        for (long seed = 1; seed <= 60; seed++) {
            Random random = new Random(seed);
            int systems = 5 + random.nextInt(400);
            int centres = 1 + random.nextInt(12);
            Map<String, Map<String, String>> now = new HashMap<>();
            List<DeviceRecord> known = new ArrayList<>();
            for (int s = 0; s < systems; s++) {
                String centre = "c" + (s % centres);
                int size = 1 + random.nextInt(6);
                for (int d = 0; d < size; d++) {
                    DeviceRecord r = device("s" + s + "-d" + d, "lane-" + s, random.nextInt(50) == 0 ? "c-odd" : centre);
                    known.add(r);
                    now.put(r.controllerId(), new HashMap<>(r.attributes()));
                }
            }
            for (int i = 0; i < 30; i++) {
                now.put("stranger-" + i, Map.of("device", "lane-" + random.nextInt(systems), "centerid", "c0"));
            }
            Set<String> expectedChanged = new HashSet<>();
            for (int n = random.nextInt(15); n > 0; n--) {
                DeviceRecord victim = known.get(random.nextInt(known.size()));
                Map<String, String> values = now.get(victim.controllerId());
                if (values == null) {
                    continue;
                }
                switch (random.nextInt(5)) {
                    case 0 -> values.put("device", "lane-" + random.nextInt(systems));
                    case 1 -> values.put("centerid", "c" + random.nextInt(centres + 1));
                    case 2 -> values.put("device", "brand-new-" + random.nextInt(3));
                    case 3 -> values.remove(random.nextBoolean() ? "device" : "centerid");
                    default -> now.remove(victim.controllerId());
                }
                Map<String, String> after = now.get(victim.controllerId());
                if (!victim.attributes().equals(after)) {
                    expectedChanged.add(victim.controllerId());
                } else {
                    expectedChanged.remove(victim.controllerId());
                }
            }

            AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, known, 1 + 300 + random.nextInt(3000));
            Set<String> flagged = new HashSet<>();
            for (AttributeCheck.Query q : plan.queries()) {
                Rsql.Node node = RsqlEvaluator.parse(q.fiql());
                List<String> answer = now.entrySet().stream()
                        .filter(e -> RsqlEvaluator.matches(node, c -> RsqlEvaluator.compare(
                                e.getValue().get(c.selector().substring("attribute.".length())), c)))
                        .map(Map.Entry::getKey).toList();
                flagged.addAll(plan.changedIn(q, answer));
            }
            assertThat(flagged).as("seed %d", seed).isEqualTo(expectedChanged);
        }
    }

    @Test
    void hostileValuesAreQuotedNotInterpreted() {
        AttributeCheck.Plan plan = AttributeCheck.plan(KEYS, List.of(device("a", "x\",controllerId==\"*", "c;1")), 3000);

        assertThat(plan.queries().get(0).fiql()).isEqualTo(
                "attribute.device=in=(\"x\\\",controllerId==\\\"*\");attribute.centerid==\"c;1\"");
    }
}
