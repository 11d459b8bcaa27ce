package io.qawk.orchestrator.rules;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.rules.CompatibilityRulesTest.COMPONENTS;
import static io.qawk.orchestrator.rules.CompatibilityRulesTest.WHY;
import static io.qawk.orchestrator.rules.CompatibilityRulesTest.appNeedsFw;
import static org.assertj.core.api.Assertions.assertThat;

/** A manifest's way against the rules: every order and every state during one; the orders the rules imply. */
class ManifestPathTest {

    static List<ManifestPath.Step> steps(String... componentSetOrder) {
        List<ManifestPath.Step> out = new ArrayList<>();
        for (int i = 0; i < componentSetOrder.length; i += 3) {
            out.add(new ManifestPath.Step(componentSetOrder[i], componentSetOrder[i + 1],
                    Integer.valueOf(componentSetOrder[i + 2])));
        }
        return out;
    }

    @ParameterizedTest(name = "app {0} at {1}, fw {2} at {3}: {4}")
    @CsvSource(delimiter = '|', value = {
            // up: the firmware the new app needs goes first
            "app:2.0 | 2 | device2-fw:2.0 | 1 | ok",
            "app:2.0 | 1 | device2-fw:2.0 | 2 | put device1 after device2: order 3",
            "app:2.0 | 1 | device2-fw:2.0 | 1 | put device1 after device2: order 2",
            "app:2.0 | 5 | device2-fw:2.0 | 5 | put device1 after device2: order 6",
            // down: the app that needs the new firmware goes back first
            "app:1.0 | 1 | device2-fw:1.0 | 2 | ok",
            "app:1.0 | 2 | device2-fw:1.0 | 1 | put device2 after device1: order 3",
            "app:1.0 | 1 | device2-fw:1.0 | 1 | put device2 after device1: order 2",
            // nothing constrains: an old app with the new firmware, in any order
            "app:1.5 | 1 | device2-fw:2.0 | 1 | ok",
            "app:1.5 | 2 | device2-fw:2.0 | 1 | ok",
            "app:1.5 | 1 | device2-fw:2.0 | 2 | ok",
            // the destination itself breaks: no order helps
            "app:2.0 | 2 | device2-fw:1.0 | 1 | destination",
    })
    void checksEveryStateOnTheWay(String app, int appOrder, String fw, int fwOrder, String expected) {
        var problem = ManifestPath.check(appNeedsFw(), steps("device1", app, "" + appOrder, "device2", fw, "" + fwOrder));
        if (expected.equals("ok")) {
            assertThat(problem).isEmpty();
            return;
        }
        assertThat(problem).get().satisfies(p -> {
            assertThat(p.words()).contains(WHY).contains("rules[0]");
            if (expected.equals("destination")) {
                assertThat(p.words()).contains("destination").contains("no order helps");
                assertThat(p.suggestedOrder()).isNull();
            } else {
                assertThat(p.words()).endsWith(expected);
                assertThat(p.component()).isEqualTo(expected.substring(4, 11));
            }
        });
    }

    @Test
    void theWordsSayWhatTheOrderWouldLeaveBehind() {
        var p = ManifestPath.check(appNeedsFw(), steps("device1", "app:2.0", "1", "device2", "device2-fw:2.0", "2"))
                .orElseThrow();
        assertThat(p.words()).isEqualTo("order 1 can leave device1 on app:2.0 with device2 still on its old set (not "
                + "device2-fw:[2.0,)), which rules[0] forbids — " + WHY + "; put device1 after device2: order 3");
        assertThat(p.suggestedOrder()).isEqualTo(3);
    }

    @Test
    void aRuleAboutAComponentTheManifestLeavesOutIsLeftToThePlan() {
        assertThat(ManifestPath.check(appNeedsFw(), steps("device1", "app:2.0", "1"))).isEmpty();
        assertThat(ManifestPath.check(appNeedsFw(), steps("device2", "device2-fw:1.0", "1", "device3", "d:1", "1")))
                .isEmpty();
    }

    @Test
    void derivesTheFewestOrdersEqualWhereNothingConstrains() {
        Map<String, String> sets = new LinkedHashMap<>();
        sets.put("device1", "app:2.0");
        sets.put("device2", "device2-fw:2.0");
        sets.put("device3", "display:7");
        ManifestPath.Derived d = ManifestPath.derive(appNeedsFw(), sets);
        assertThat(d.problem()).isEmpty();
        assertThat(d.orders()).containsExactlyInAnyOrderEntriesOf(Map.of("device1", 2, "device2", 1, "device3", 1));
    }

    @Test
    void withoutRulesEverythingGoesTogether() {
        Map<String, String> sets = Map.of("device1", "app:2.0", "device2", "device2-fw:1.0");
        assertThat(ManifestPath.derive(CompatibilityRules.none(), sets).orders()).containsOnly(
                Map.entry("device1", 1), Map.entry("device2", 1));
    }

    @Test
    void derivesAChain() {
        CompatibilityRules rules = CompatibilityRules.of(List.of(
                new RuleSpec(Map.of("device1", "app:[2.0,)"), Map.of("device2", "device2-fw:[2.0,)"), "a"),
                new RuleSpec(Map.of("device2", "device2-fw:[2.0,)"), Map.of("device3", "display:[7,)"), "b")),
                COMPONENTS);
        Map<String, String> sets = Map.of("device1", "app:2.0", "device2", "device2-fw:2.0", "device3", "display:7");
        ManifestPath.Derived d = ManifestPath.derive(rules, sets);
        assertThat(d.problem()).isEmpty();
        assertThat(d.orders()).containsOnly(Map.entry("device3", 1), Map.entry("device2", 2), Map.entry("device1", 3));
    }

    @Test
    void aCycleHasNoOrder() {
        CompatibilityRules rules = CompatibilityRules.of(List.of(
                new RuleSpec(Map.of("device1", "app:[2.0,)"), Map.of("device2", "device2-fw:[2.0,)"), "a"),
                new RuleSpec(Map.of("device2", "device2-fw:[2.0,)"), Map.of("device1", "app:[2.0,)"), "b")),
                COMPONENTS);
        ManifestPath.Derived d = ManifestPath.derive(rules, Map.of("device1", "app:2.0", "device2", "device2-fw:2.0"));
        assertThat(d.problem()).get().extracting(ManifestPath.Problem::words).asString()
                .startsWith("no order keeps the rules");
    }

    @Test
    void derivedOrdersAlwaysPassTheCheck() {
        String[] apps = {"app:1.0", "app:2.0"};
        String[] fws = {"device2-fw:1.0", "device2-fw:2.0"};
        for (String app : apps) {
            for (String fw : fws) {
                ManifestPath.Derived d = ManifestPath.derive(appNeedsFw(), Map.of("device1", app, "device2", fw));
                if (d.problem().isEmpty()) {
                    assertThat(ManifestPath.check(appNeedsFw(), steps("device1", app, "" + d.orders().get("device1"),
                            "device2", fw, "" + d.orders().get("device2")))).as(app + " " + fw).isEmpty();
                } else {
                    assertThat(app + fw).isEqualTo("app:2.0device2-fw:1.0");
                }
            }
        }
    }
}
