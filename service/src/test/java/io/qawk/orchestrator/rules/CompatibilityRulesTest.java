package io.qawk.orchestrator.rules;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading rules (every mistake with its field path) and the evaluator: which states break which rule, in words. */
class CompatibilityRulesTest {

    static final List<String> COMPONENTS = List.of("device1", "device2", "device3");
    static final String WHY = "app 2 speaks the v2 terminal protocol";

    static CompatibilityRules appNeedsFw() {
        return CompatibilityRules.of(List.of(new RuleSpec(Map.of("device1", "app:[2.0,)"),
                Map.of("device2", "device2-fw:[2.0,)"), WHY)), COMPONENTS);
    }

    static SystemState lane(String app, String... fws) {
        SystemState s = SystemState.empty().with("device1", "lane-a", app);
        for (int i = 0; i < fws.length; i++) {
            s = s.with("device2", "lane-" + (char) ('b' + i), fws[i]);
        }
        return s;
    }

    @ParameterizedTest(name = "app {0}, terminals {1} and {2}: broken {3}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "app:1.0 | device2-fw:1.0 | device2-fw:1.0 | false",
            "app:1.9 | device2-fw:1.0 | device2-fw:2.0 | false",
            "app:2.0 | device2-fw:2.0 | device2-fw:2.0 | false",
            "app:2.0 | device2-fw:2.0 | device2-fw:2.1 | false",
            "app:2.0 | device2-fw:2.0 | device2-fw:1.9 | true",
            "app:2.0 | device2-fw:1.0 | device2-fw:2.0 | true",
            "app:3   | device2-fw:2.0 | -              | true",
            "-       | device2-fw:1.0 | device2-fw:1.0 | false",
            "app:2.0 | other:2.0      | device2-fw:2.0 | true",
    })
    void judgesEveryDevice(String app, String fw1, String fw2, boolean broken) {
        assertThat(appNeedsFw().allows(lane(app, fw1, fw2))).isEqualTo(!broken);
    }

    @Test
    void aComponentWithoutDevicesNeitherTriggersNorBreaks() {
        assertThat(appNeedsFw().allows(SystemState.empty().with("device1", "a", "app:2.0"))).isTrue();
        assertThat(appNeedsFw().allows(SystemState.empty().with("device2", "b", "device2-fw:1.0"))).isTrue();
        assertThat(appNeedsFw().allows(SystemState.empty())).isTrue();
    }

    @Test
    void aBreachNamesTheDevicesTheirSetsAndTheRule() {
        Breach b = appNeedsFw().firstBreach(lane("app:2.0", "device2-fw:2.0", "device2-fw:1.0")).orElseThrow();
        assertThat(b.rule()).isZero();
        assertThat(b.trigger()).isEqualTo(new Breach.Party("device1", "lane-a", "app:2.0"));
        assertThat(b.offender()).isEqualTo(new Breach.Party("device2", "lane-c", "device2-fw:1.0"));
        assertThat(b.words()).isEqualTo("lane-a runs app:2.0 with lane-c on device2-fw:1.0 (rules[0] needs device2 on "
                + "device2-fw:[2.0,)) — " + WHY);
        assertThat(appNeedsFw().firstBreach(lane("app:2.0", (String) null)).orElseThrow().words())
                .startsWith("lane-a runs app:2.0 with lane-b on nothing");
    }

    @Test
    void aCensusCombinationNamesComponents() {
        Map<String, List<String>> sets = new LinkedHashMap<>();
        sets.put("device1", List.of("app:2.0"));
        sets.put("device2", List.of("device2-fw:1.0", "device2-fw:2.0"));
        assertThat(appNeedsFw().firstBreach(SystemState.ofSets(sets))).get().extracting(Breach::words)
                .asString().startsWith("device1 runs app:2.0 with device2 on device2-fw:1.0");
    }

    @Test
    void everyIfMustHoldAndEveryThenIsNeeded() {
        CompatibilityRules rules = CompatibilityRules.of(List.of(new RuleSpec(
                ordered("device1", "app:[2.0,)", "device3", "display:[5,)"),
                ordered("device2", "device2-fw:[2.0,)"), "both")), COMPONENTS);
        SystemState app2Display4 = lane("app:2.0", "device2-fw:1.0").with("device3", "d", "display:4");
        SystemState app2Display5 = lane("app:2.0", "device2-fw:1.0").with("device3", "d", "display:5");
        assertThat(rules.allows(app2Display4)).isTrue();
        assertThat(rules.allows(app2Display5)).isFalse();
        CompatibilityRules two = CompatibilityRules.of(List.of(new RuleSpec(Map.of("device1", "app:[2.0,)"),
                ordered("device2", "device2-fw:[2.0,)", "device3", "display:[5,)"), "both")), COMPONENTS);
        assertThat(two.firstBreach(lane("app:2.0", "device2-fw:2.0").with("device3", "d", "display:4")))
                .get().extracting(b -> b.offender().device()).isEqualTo("d");
    }

    @Test
    void allBreachesInTheRulesOrder() {
        CompatibilityRules rules = CompatibilityRules.of(List.of(
                new RuleSpec(Map.of("device1", "app:[2.0,)"), Map.of("device2", "device2-fw:[2.0,)"), "first"),
                new RuleSpec(Map.of("device2", "device2-fw:[1.0,2.0)"), Map.of("device1", "app:[1.0,2.0)"), "second"),
                new RuleSpec(Map.of("device3", "display:1"), Map.of("device1", "app:1"), "third")), COMPONENTS);
        assertThat(rules.breaches(lane("app:2.0", "device2-fw:1.0")).stream().map(Breach::rule))
                .containsExactly(0, 1);
        assertThat(rules.allows(lane("app:1.0", "device2-fw:1.0"))).isTrue();
    }

    @ParameterizedTest(name = "{1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "{\"device9\": \"app:[2.0,)\"} | {\"device2\": \"fw:[2.0,)\"} | rules[0].if.device9 | not a component",
            "{\"device1\": \"app:[2.0,)\"} | {\"device9\": \"fw:[2.0,)\"} | rules[0].then.device9 | not a component",
            "{\"device1\": \"app:[2.0,1.0]\"} | {\"device2\": \"fw:[2.0,)\"} | rules[0].if.device1 | Range defies",
            "{\"device1\": \"app:[2.0\"} | {\"device2\": \"fw:[2.0,)\"} | rules[0].if.device1 | Unbounded range",
            "{\"device1\": \"app:[2.0,)\"} | {\"device2\": \"fw\"} | rules[0].then.device2 | a set name, ':'",
            "{} | {\"device2\": \"fw:[2.0,)\"} | rules[0].if | is required",
            "{\"device1\": \"app:[2.0,)\"} | {\"device1\": \"app:[1.0,2.0)\"} | rules[0].then.device1 | can never hold",
            "{\"device1\": \"app:[2.0,)\"} | {\"device1\": \"app:[2.1,)\"} | rules[0].then.device1 | also in if",
    })
    void refusesNamingTheField(String when, String then, String field, String words) throws Exception {
        var json = new ObjectMapper();
        var map = new TypeReference<LinkedHashMap<String, String>>() {
        };
        RuleSpec spec = new RuleSpec(json.readValue(when, map), json.readValue(then, map), WHY);
        FieldErrors errors = new FieldErrors();
        CompatibilityRules.parse(List.of(spec), COMPONENTS, errors);
        assertThatThrownBy(errors::throwIfAny).isInstanceOfSatisfying(InvalidRequestException.class,
                e -> assertThat(e.errors()).extracting(FieldError::field, f -> f.message().contains(words))
                        .containsExactly(Tuple.tuple(field, true)));
    }

    @Test
    void aRuleNeedsItsWhy() {
        FieldErrors errors = new FieldErrors();
        List<RuleSpec> specs = new ArrayList<>();
        specs.add(new RuleSpec(Map.of("device1", "app:2"), Map.of("device2", "fw:2"), " "));
        specs.add(null);
        CompatibilityRules.parse(specs, COMPONENTS, errors);
        assertThatThrownBy(errors::throwIfAny).isInstanceOfSatisfying(InvalidRequestException.class,
                e -> assertThat(e.errors()).extracting(FieldError::field).containsExactly("rules[0].why", "rules[1]"));
    }

    @Test
    void noRulesAllowEverything() {
        assertThat(CompatibilityRules.of(null, COMPONENTS).allows(lane("app:2.0", "device2-fw:1.0"))).isTrue();
        assertThat(CompatibilityRules.none().firstBreach(lane("app:2.0"))).isEqualTo(Optional.empty());
    }

    static Map<String, String> ordered(String... kv) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            out.put(kv[i], kv[i + 1]);
        }
        return out;
    }
}
