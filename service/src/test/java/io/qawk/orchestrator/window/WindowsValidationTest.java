package io.qawk.orchestrator.window;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a request's {@code windows} may hold, as a table: each row one window, put as the default or as centre c01's,
 * and the one problem it must be refused with (field and the start of the message), or none.
 */
class WindowsValidationTest {

    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # case                                   | where   | window                                                                          | field                           | message
            a window as in the description           | centre  | {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}   | -                               | -
            the default alone                        | default | {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "UTC"}             | -                               | -
            weekdays, with a year, 168 hours          | centre  | {"schedule": "0 0 22 ? * MON-FRI 2026-2030", "duration": "168:00", "timezone": "America/New_York"} | - | -
            a five-field (Unix) cron                 | centre  | {"schedule": "0 2 * * *", "duration": "03:00", "timezone": "UTC"}               | windows.centres.c01.schedule    | not a cron schedule: Cron expression contains 5 parts but we expect one of [6, 7]
            an hour that does not exist              | centre  | {"schedule": "0 0 25 * * ?", "duration": "03:00", "timezone": "UTC"}            | windows.centres.c01.schedule    | not a cron schedule: Value 25 not in range [0, 23]
            both day fields set (Quartz wants a ?)   | centre  | {"schedule": "0 0 2 * * MON", "duration": "03:00", "timezone": "UTC"}           | windows.centres.c01.schedule    | not a cron schedule:
            words                                    | default | {"schedule": "every night", "duration": "03:00", "timezone": "UTC"}             | windows.default.schedule        | not a cron schedule:
            a schedule that never comes again        | centre  | {"schedule": "0 0 2 * * ? 2025", "duration": "03:00", "timezone": "UTC"}        | windows.centres.c01.schedule    | names no time after now
            a day that never is                      | centre  | {"schedule": "0 0 2 30 2 ?", "duration": "03:00", "timezone": "UTC"}            | windows.centres.c01.schedule    | names no time after now
            no schedule                              | centre  | {"duration": "03:00", "timezone": "UTC"}                                        | windows.centres.c01.schedule    | is required
            a zero duration                          | centre  | {"schedule": "0 0 2 * * ?", "duration": "00:00", "timezone": "UTC"}             | windows.centres.c01.duration    | must be longer than 00:00 and at most 168:00 (7 days)
            longer than 7 days                       | centre  | {"schedule": "0 0 2 * * ?", "duration": "168:01", "timezone": "UTC"}            | windows.centres.c01.duration    | must be longer than 00:00 and at most 168:00 (7 days)
            a duration in other words                | centre  | {"schedule": "0 0 2 * * ?", "duration": "3h", "timezone": "UTC"}                | windows.centres.c01.duration    | must be HH:MM, e.g. 03:00 (got '3h')
            sixty minutes                            | centre  | {"schedule": "0 0 2 * * ?", "duration": "02:60", "timezone": "UTC"}             | windows.centres.c01.duration    | must be HH:MM
            no duration                              | default | {"schedule": "0 0 2 * * ?", "timezone": "UTC"}                                  | windows.default.duration        | is required
            an unknown zone                          | centre  | {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Mars/Olympus"}    | windows.centres.c01.timezone    | unknown time zone 'Mars/Olympus': use an IANA time zone id
            an offset is not a zone                  | centre  | {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "+02:00"}          | windows.centres.c01.timezone    | unknown time zone '+02:00'
            a zone in the wrong case                 | centre  | {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "europe/berlin"}   | windows.centres.c01.timezone    | unknown time zone
            no zone                                  | centre  | {"schedule": "0 0 2 * * ?", "duration": "03:00"}                                | windows.centres.c01.timezone    | is required
            no window for the centre                 | centre  | null                                                                            | windows.centres.c01             | is required: a window with schedule, duration and timezone
            """)
    void aWindowIsRefusedNamingItsField(String name, String where, String window, String field, String message)
            throws Exception {
        String json = where.equals("default") ? "{\"default\": " + window + "}" : "{\"centres\": {\"c01\": " + window + "}}";
        List<FieldError> errors = problems(json, "windows");
        if (field == null) {
            assertThat(errors).as(name).isEmpty();
        } else {
            assertThat(errors).as(name).hasSize(1);
            assertThat(errors.get(0).field()).as(name).isEqualTo(field);
            assertThat(errors.get(0).message()).as(name).startsWith(message);
        }
    }

    @Test
    void everyProblemIsNamedAtOnceUnderTheChannelsField() throws Exception {
        List<FieldError> errors = problems("""
                {"default": {"schedule": "x", "duration": "00:00", "timezone": "Nowhere"},
                 "centres": {" ": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "UTC"}}}
                """, "orchestrator.windows");
        assertThat(errors).extracting(FieldError::field).containsExactly("orchestrator.windows.default.schedule",
                "orchestrator.windows.default.duration", "orchestrator.windows.default.timezone",
                "orchestrator.windows.centres");
    }

    @Test
    void aScheduleLongerThan256CharactersIsRefusedBeforeItIsRead() throws Exception {
        String json = "{\"centres\": {\"c01\": {\"schedule\": \"0 0 2 * * ?" + " ".repeat(246)
                + "\", \"duration\": \"03:00\", \"timezone\": \"UTC\"}}}";
        assertThat(problems(json, "windows")).containsExactly(new FieldError("windows.centres.c01.schedule",
                "must be at most 256 characters (got 257)"));
    }

    /** A centre's name is a JSON key, which the API's text checks do not see: Postgres would refuse U+0000 in it. */
    @Test
    void aCentreNameThatCannotBeStoredIsRefused() throws Exception {
        String window = "{\"schedule\": \"0 0 2 * * ?\", \"duration\": \"03:00\", \"timezone\": \"UTC\"}";
        assertThat(problems("{\"centres\": {\"c\\u0000\": " + window + "}}", "windows")).containsExactly(
                new FieldError("windows.centres", "a centre's name must not contain the NUL character (U+0000)"));
        assertThat(problems("{\"centres\": {\"c\\ud800\": " + window + "}}", "windows")).extracting(FieldError::field)
                .containsExactly("windows.centres");
        assertThat(problems("{\"centres\": {\"" + "c".repeat(257) + "\": " + window + "}}", "windows"))
                .extracting(FieldError::field).containsExactly("windows.centres");
    }

    @Test
    void noWindowsAndEmptyWindowsAreFine() throws Exception {
        assertThat(problems("{}", "windows")).isEmpty();
        assertThat(problems("{\"centres\": {}}", "windows")).isEmpty();
        FieldErrors errors = new FieldErrors();
        WindowsValidation.check(null, "windows", NOW, errors);
        assertThat(errors.isEmpty()).isTrue();
    }

    private static List<FieldError> problems(String json, String field) throws Exception {
        FieldErrors errors = new FieldErrors();
        WindowsValidation.check(new ObjectMapper().readValue(json, Windows.class), field, NOW, errors);
        try {
            errors.throwIfAny();
            return List.of();
        } catch (InvalidRequestException e) {
            return e.errors();
        }
    }
}
