package io.qawk.orchestrator.inventory;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration identity of a mix: its definition, order-blind, and what tells mixes apart. */
class ConfigurationIdTest {

    @Test
    void isTheFirstTwelveHexOfTheSha256OfTheSortedLines() {
        // printf 'display=disp:1\nlane=app:1\nterminal=term:1\n' | sha256sum
        assertThat(ConfigurationId.of(Map.of("lane", List.of("app:1"), "terminal", List.of("term:1"),
                "display", List.of("disp:1")))).isEqualTo("80dc2ace2774");
    }

    @Test
    void theOrderOfComponentsAndSetsDoesNotCount() {
        Map<String, List<String>> a = new LinkedHashMap<>();
        a.put("lane", List.of("app:1", "app:2"));
        a.put("display", List.of("disp:1"));
        Map<String, List<String>> b = new LinkedHashMap<>();
        b.put("display", List.of("disp:1"));
        b.put("lane", List.of("app:2", "app:1"));
        assertThat(ConfigurationId.of(a)).isEqualTo(ConfigurationId.of(b));
    }

    @Test
    void anotherSetOrTheSameSetOnAnotherComponentIsAnotherId() {
        String base = ConfigurationId.of(Map.of("lane", List.of("app:1"), "display", List.of("disp:1")));
        assertThat(ConfigurationId.of(Map.of("lane", List.of("app:2"), "display", List.of("disp:1")))).isNotEqualTo(base);
        assertThat(ConfigurationId.of(Map.of("lane", List.of("disp:1"), "display", List.of("app:1")))).isNotEqualTo(base);
        assertThat(ConfigurationId.of(Map.of("lane", Arrays.asList("app:1", null), "display", List.of("disp:1"))))
                .isNotEqualTo(base).matches("[0-9a-f]{12}");
    }
}
