package io.qawk.orchestrator.deployment.plan;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one close name (Levenshtein distance, at most a third of the longer name), or none. */
class NearestNameTest {

    @ParameterizedTest(name = "{0} among {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            lane-7         | lane-07 lane-18             | lane-07
            lane-07        | lane-01 lane-02             |
            Lane-07        | lane-07 lane-08             | lane-07
            c03            | c01 c02                     |
            c1             | c01 c02                     | c01
            no-such-system | device-07 device-08         |
            device-7       | device-07 device-17         |
            device-7       | device-07 device-18         | device-07
            devcie-07      | device-07 device-08         | device-07
            x              | y                           |
            ab             | abc                         | abc
            centre-nrth    | centre-north centre-south   | centre-north
            """)
    void suggestsOnlyOneCloseName(String given, String known, String expected) {
        List<String> names = Arrays.asList(known.split(" "));
        assertThat(NearestName.in(given, names).orElse(null)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} to {1}: {2}")
    @CsvSource({"kitten, sitting, 3", "'', abc, 3", "abc, abc, 0", "flaw, lawn, 2"})
    void levenshtein(String a, String b, int d) {
        assertThat(NearestName.distance(a, b)).isEqualTo(d);
    }
}
