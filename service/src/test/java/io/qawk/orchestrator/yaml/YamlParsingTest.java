package io.qawk.orchestrator.yaml;

import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The defensive reader: one document, no aliases, limits on size and depth, positions kept. */
class YamlParsingTest {

    static final String BILLION_LAUGHS = """
            a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
            b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
            c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
            d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
            e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
            f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
            g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
            """;

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("empty", "", "the body is empty"),
                Arguments.of("blank", "  \n\n", "the body is empty"),
                Arguments.of("only a comment", "# nothing\n", "holds no YAML document"),
                Arguments.of("broken indentation", "a: 1\n  b: 2\n", "line 2"),
                Arguments.of("unclosed flow", "a: [1, 2\nb: 3\n", "not valid YAML at line"),
                Arguments.of("two documents", "a: 1\n---\nb: 2\n", "more than one YAML document (another starts at line 3"),
                Arguments.of("billion laughs", BILLION_LAUGHS, "anchors (&a) are not supported at line 1"),
                Arguments.of("alias without anchor", "a: x\nb: *x\n", "aliases (*x) are not supported at line 2, column 4 (b)"),
                Arguments.of("anchored scalar", "a: &x 1\nb: *x\n", "aliases (*x) are not supported at line 2"),
                Arguments.of("duplicate key", "kind: topology\nkind: manifest\n",
                        "the key 'kind' appears twice in one mapping (again at line 2, column 1)"),
                Arguments.of("deep nesting", "a: " + "[".repeat(30) + "]".repeat(30) + "\n", "nested more than 20 levels"),
                Arguments.of("tag", "a: !!python/object:os.system x\n", "tags"),
                Arguments.of("too big", "a: '" + "x".repeat(YamlParsing.MAX_BYTES) + "'\n", "at most 262144 bytes (256 KB)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithWhatAndWhere(String what, String yaml, String expected) {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> YamlParsing.parse(yaml.getBytes(StandardCharsets.UTF_8)));
        assertThat(e).as(what).isNotNull();
        assertThat(e.getMessage()).contains(expected);
        assertThat(e.errors()).extracting(FieldError::field).containsExactly("");
    }

    @Test
    void keepsPositionsAndTypes() {
        YamlDocument doc = YamlParsing.parse("""
                ---
                api_version: mender/v1
                components:
                  - component_type: device1
                    qawk_match: "attribute.x==1"
                    n: 7
                  - { component_type: device2 }
                ...
                """.getBytes(StandardCharsets.UTF_8));
        assertThat(doc.root().path("components").get(0).path("n").isIntegralNumber()).isTrue();
        assertThat(doc.at("components[0].qawk_match")).isEqualTo(" (line 5, column 5)");
        assertThat(doc.at("components[1]")).isEqualTo(" (line 7, column 5)");
        assertThat(doc.at("nowhere")).isEmpty();
    }

    @Test
    void keysThatAreNotPlainAreQuotedInPaths() {
        assertThat(YamlPaths.key("component_types", "a.b")).isEqualTo("component_types[\"a.b\"]");
        assertThat(YamlPaths.key("", "kind")).isEqualTo("kind");
    }
}
