package io.qawk.orchestrator.rules;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Set patterns: Maven's versions and ranges, boundaries included. */
class SetPatternTest {

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "app:[2.0,)        | app:2.0          | true",
            "app:[2.0,)        | app:2            | true",
            "app:[2.0,)        | app:10.0         | true",
            "app:[2.0,)        | app:1.9          | false",
            "app:[2.0,)        | app:2.0-SNAPSHOT | false",
            "app:(2.0,)        | app:2.0          | false",
            "app:(2.0,)        | app:2.0.1        | true",
            "app:[1.0,2.0)     | app:1.0          | true",
            "app:[1.0,2.0)     | app:1.99         | true",
            "app:[1.0,2.0)     | app:2.0          | false",
            "app:[1.0,2.0]     | app:2.0          | true",
            "app:[1.5]         | app:1.5          | true",
            "app:[1.5]         | app:1.5.1        | false",
            "app:[1.0],[3.0,)  | app:2.0          | false",
            "app:[1.0],[3.0,)  | app:3.1          | true",
            "app:2.0           | app:2.0          | true",
            "app:2.0           | app:2            | true",
            "app:2.0           | app:2.0.0        | true",
            "app:2.0           | app:2.1          | false",
            "app:[2.0,)        | apps:2.0         | false",
            "app:[2.0,)        | device2-fw:2.0   | false",
            "my:app:[2.0,)     | my:app:2.1       | true",
            "my:app:2.1        | my:app:2.1       | true",
            "app:[2.0,)        | app              | false",
    })
    void matchesAsMavenCompares(String pattern, String set, boolean matches) {
        assertThat(SetPattern.parse(pattern).matches(set)).isEqualTo(matches);
    }

    @ParameterizedTest(name = "{0} is refused")
    @ValueSource(strings = {"app", "app:", ":2.0", "app:[2.0,1.0]", "app:(1.0,1.0)", "app:[1.0", "app:1.0,2.0",
            "app:[2.0,3.0),(,2.5]", " ", "app[2.0,)"})
    void refusesWhatDoesNotRead(String pattern) {
        assertThatThrownBy(() -> SetPattern.parse(pattern)).isInstanceOf(SetPattern.Unreadable.class);
    }

    @ParameterizedTest(name = "{0} and {1} disjoint: {2}")
    @CsvSource(delimiter = '|', value = {
            "app:[2.0,)    | app:[1.0,2.0)  | true",
            "app:[2.0,)    | app:[1.0,2.0]  | false",
            "app:[2.0,)    | app:2.5        | false",
            "app:2.0       | app:2          | false",
            "app:2.0       | app:2.1        | true",
            "app:[1.0,2.0) | app:2.0        | true",
            "app:[2.0,)    | fw:[2.0,)      | true",
    })
    void knowsWhenNoSetMeetsBoth(String a, String b, boolean disjoint) {
        assertThat(SetPattern.parse(a).disjointFrom(SetPattern.parse(b))).isEqualTo(disjoint);
        assertThat(SetPattern.parse(b).disjointFrom(SetPattern.parse(a))).isEqualTo(disjoint);
    }
}
