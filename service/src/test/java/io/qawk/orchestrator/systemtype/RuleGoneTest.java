package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.rules.RuleSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RuleGoneTest {

    private static final RuleSpec APP = new RuleSpec(Map.of("lane", "app:[2,)"), Map.of("terminal", "term:[2,)"), "v2");
    private static final RuleSpec FW = new RuleSpec(Map.of("terminal", "term:[3,)"), Map.of("lane", "app:[3,)"), "v3");
    private static final RuleSpec LOOSER = new RuleSpec(Map.of("lane", "app:[2,)"), Map.of("terminal", "term:[1,)"), "v2");

    @Test
    void aRuleLeftOutIsRemovedOneInItsPlaceChangedAndOneMovedIsNotGone() {
        assertThat(RuleGone.between(List.of(APP, FW), List.of(FW))).containsExactly(new RuleGone(0, APP, false));
        assertThat(RuleGone.between(List.of(APP, FW), List.of(APP))).containsExactly(new RuleGone(1, FW, false));
        assertThat(RuleGone.between(List.of(APP, FW), null)).containsExactly(new RuleGone(0, APP, false),
                new RuleGone(1, FW, false));
        assertThat(RuleGone.between(List.of(APP), List.of(LOOSER))).containsExactly(new RuleGone(0, APP, true));
        assertThat(RuleGone.between(List.of(APP, FW), List.of(FW, APP))).isEmpty();
    }

    @Test
    void itsWordsNameTheRuleAndWhatItExposed() {
        assertThat(new RuleGone(1, FW, false).words(List.of("s1 no longer held (deployment 4)")))
                .isEqualTo("rules[1] removed (\"v3\"): exposed s1 no longer held (deployment 4)");
        assertThat(new RuleGone(0, APP, true).words(List.of()))
                .isEqualTo("rules[0] changed (\"v2\"): it held no system and protected none from a threat");
    }
}
