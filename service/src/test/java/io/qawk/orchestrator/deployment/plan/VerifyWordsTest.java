package io.qawk.orchestrator.deployment.plan;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a device reports instead of its verification query, in the words of the run's reason. */
class VerifyWordsTest {

    @ParameterizedTest(name = "{0} with {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            attribute.app_version==2.0                                | app_version=1.9                   | reports 1.9
            attribute.app_version==2.0                                | APP_VERSION=1.9                   | reports 1.9
            attribute.app_version==2.0                                | lane_state=idle                   | reports no app_version
            attribute.app_version=in=(2.0,2.1)                        | app_version=1.9                   | reports 1.9
            attribute.app_version==2.0;attribute.lane_state==scoring  | app_version=2.0,lane_state=idle   | reports app_version=2.0, lane_state=idle
            (attribute.a==1,attribute.b==2);attribute.a!=0             | b=3                               | reports no a, b=3
            installedDS.version==2.0                                  | app_version=1.9                   | -
            """)
    void whatADeviceReports(String query, String attributes, String words) {
        Map<String, String> reported = new LinkedHashMap<>();
        for (String pair : attributes.split(",")) {
            String[] kv = pair.split("=", 2);
            reported.put(kv[0], kv[1]);
        }
        assertThat(VerifyWords.reports(query, reported)).isEqualTo(words);
    }
}
