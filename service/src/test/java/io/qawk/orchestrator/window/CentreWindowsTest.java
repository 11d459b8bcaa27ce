package io.qawk.orchestrator.window;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which window a centre gets (its own, the default, none) and what a pending system of it reads, as a table. The
 * windows: c01 its own window at 02:00 Europe/Berlin for 3 h, c02 one on 5 December only, c03 one that cannot be
 * read, the rest the default at 22:15:30 UTC for 1 h; {@code null} is a system without a centre.
 */
class CentreWindowsTest {

    static final String WINDOWS = """
            {"default": {"schedule": "30 15 22 * * ?", "duration": "01:00", "timezone": "UTC"},
             "centres": {"c01": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"},
                         "c02": {"schedule": "0 0 2 5 12 ?", "duration": "03:00", "timezone": "Europe/Berlin"},
                         "c03": {"schedule": "not cron", "duration": "03:00", "timezone": "Europe/Berlin"}}}
            """;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # case                                        | centre | at                   | reason
            its own window, closed: when it opens, local  | c01    | 2026-12-02T00:30:00Z | waiting for c01's window (opens 02:00 Europe/Berlin)
            its own window, open                          | c01    | 2026-12-02T01:30:00Z | -
            more than a day away: with the date           | c02    | 2026-12-02T01:30:00Z | waiting for c02's window (opens 2026-12-05 02:00 Europe/Berlin)
            a window that cannot be read stays closed     | c03    | 2026-12-02T01:30:00Z | waiting for c03's window (its window cannot be read: Cron expression contains 2 parts but we expect one of [6, 7])
            a centre not listed has the default           | c09    | 2026-12-02T12:00:00Z | waiting for c09's window (opens 22:15:30 UTC)
            the default, open                             | c09    | 2026-12-02T22:30:00Z | -
            a system without a centre has the default     | null   | 2026-12-02T12:00:00Z | waiting for its centre's window (opens 22:15:30 UTC)
            """)
    void aPendingSystemSaysWhenItsWindowOpens(String name, String centre, Instant at, String reason) throws Exception {
        CentreWindows w = CentreWindows.of(new ObjectMapper().readValue(WINDOWS, Windows.class), at);
        String c = "null".equals(centre) ? null : centre;
        assertThat(w.waitingReason(c)).as(name).isEqualTo(reason);
        assertThat(w.closed(c)).as(name).isEqualTo(reason != null);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                                 | windows                                                                  | at                   | words
            open: until when, local                | {"centres": {"c01": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}}} | 2026-12-02T01:30:00Z | open until 05:00 Europe/Berlin
            closed: when it opens                  | {"centres": {"c01": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}}} | 2026-12-02T04:30:00Z | opens 02:00 Europe/Berlin
            always open: open with no end known    | {"centres": {"c01": {"schedule": "0 * * * * ?", "duration": "00:05", "timezone": "UTC"}}}           | 2026-12-02T04:30:00Z | open
            a schedule that ended                  | {"centres": {"c01": {"schedule": "0 0 2 * * ? 2025", "duration": "03:00", "timezone": "UTC"}}}      | 2026-12-02T04:30:00Z | it does not open again
            not listed and no default              | {"centres": {"c02": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "UTC"}}}           | 2026-12-02T04:30:00Z | no window: always open
            no window at all                       | {}                                                                                                  | 2026-12-02T04:30:00Z | no window: always open
            """)
    void eachCentresWindowInWords(String name, String windows, Instant at, String words) throws Exception {
        CentreWindows w = CentreWindows.of(new ObjectMapper().readValue(windows, Windows.class), at);
        assertThat(w.state("c01").words()).as(name).isEqualTo(words);
    }

    @Test
    void noWindowsMeansEveryCentreIsOpenAsBefore() {
        CentreWindows none = CentreWindows.of(null, Instant.parse("2026-12-02T04:30:00Z"));
        assertThat(none.any()).isFalse();
        assertThat(none.closed("c01")).isFalse();
        assertThat(none.closed(null)).isFalse();
        assertThat(none.waitingReason("c01")).isNull();
    }
}
