package io.qawk.orchestrator.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatabaseRequiredTest {

    @ParameterizedTest(name = "url={0} profiles={1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "null                                  | prod      | set QAWK_DB_URL",
            "''                                    | prod      | set QAWK_DB_URL",
            "'  '                                  | dev       | set QAWK_DB_URL",
            "jdbc:mysql://db:3306/qawk             | prod      | must be a Postgres JDBC URL",
            "jdbc:postgresql://db:5432/qawk        | prod      | ok",
            "' jdbc:postgresql://db:5432/qawk'     | dev       | ok",
            "null                                  | test      | ok",
            "null                                  | test,prod | ok",
    })
    void refusesToStartWithoutAPostgresOutsideTheTests(String url, String profiles, String expected) {
        List<String> p = Arrays.asList(profiles.split(","));
        if (expected.equals("ok")) {
            assertThat(DatabaseRequired.problem(url, p)).isEmpty();
        } else {
            assertThat(DatabaseRequired.problem(url, p)).hasValueSatisfying(m -> assertThat(m).contains(expected));
        }
    }
}
