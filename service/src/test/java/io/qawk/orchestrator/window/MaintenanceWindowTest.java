package io.qawk.orchestrator.window;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a window is open at an instant, and the stretch open now or the next one, as a table: time zones, both
 * daylight-saving nights, a window across midnight, overlapping starts, schedules that ended. Instants in UTC;
 * {@code -} for none.
 */
class MaintenanceWindowTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # case                                              | schedule              | duration | timezone         | at                   | open  | opensAt              | closesAt
            before tonight's window: it opens at 02:00 local    | 0 0 2 * * ?           | 03:00    | Europe/Berlin    | 2026-12-02T00:30:00Z | false | 2026-12-02T01:00:00Z | 2026-12-02T04:00:00Z
            the start itself is inside                          | 0 0 2 * * ?           | 03:00    | Europe/Berlin    | 2026-12-02T01:00:00Z | true  | 2026-12-02T01:00:00Z | 2026-12-02T04:00:00Z
            the last second is inside                           | 0 0 2 * * ?           | 03:00    | Europe/Berlin    | 2026-12-02T03:59:59Z | true  | 2026-12-02T01:00:00Z | 2026-12-02T04:00:00Z
            the end is outside: next night's window is next     | 0 0 2 * * ?           | 03:00    | Europe/Berlin    | 2026-12-02T04:00:00Z | false | 2026-12-03T01:00:00Z | 2026-12-03T04:00:00Z
            the same local time in summer is an hour earlier    | 0 0 2 * * ?           | 03:00    | Europe/Berlin    | 2026-07-01T00:30:00Z | true  | 2026-07-01T00:00:00Z | 2026-07-01T03:00:00Z
            across midnight: opened 23:00, still open at 01:00  | 0 0 23 * * ?          | 03:00    | Europe/Berlin    | 2026-12-02T00:00:00Z | true  | 2026-12-01T22:00:00Z | 2026-12-02T01:00:00Z
            across midnight: closed after 02:00                 | 0 0 23 * * ?          | 03:00    | Europe/Berlin    | 2026-12-02T01:30:00Z | false | 2026-12-02T22:00:00Z | 2026-12-03T01:00:00Z
            spring: 02:30 does not exist, it opens at 03:00     | 0 30 2 * * ?          | 01:00    | Europe/Berlin    | 2026-03-29T00:45:00Z | false | 2026-03-29T01:00:00Z | 2026-03-29T02:00:00Z
            spring: open from the jump, for elapsed time        | 0 30 2 * * ?          | 01:00    | Europe/Berlin    | 2026-03-29T01:10:00Z | true  | 2026-03-29T01:00:00Z | 2026-03-29T02:00:00Z
            spring: a start after the gap is unchanged          | 0 0 3 * * ?           | 01:00    | Europe/Berlin    | 2026-03-29T00:59:59Z | false | 2026-03-29T01:00:00Z | 2026-03-29T02:00:00Z
            autumn: 02:30 comes twice, the first pass opens     | 0 30 2 * * ?          | 03:00    | Europe/Berlin    | 2026-10-25T00:15:00Z | false | 2026-10-25T00:30:00Z | 2026-10-25T03:30:00Z
            autumn: three elapsed hours, into the second pass   | 0 30 2 * * ?          | 03:00    | Europe/Berlin    | 2026-10-25T01:15:00Z | true  | 2026-10-25T00:30:00Z | 2026-10-25T03:30:00Z
            autumn: the second 02:30 opens nothing              | 0 30 2 * * ?          | 00:30    | Europe/Berlin    | 2026-10-25T01:30:00Z | false | 2026-10-26T01:30:00Z | 2026-10-26T02:00:00Z
            autumn: after the first pass's window, closed       | 0 30 2 * * ?          | 00:30    | Europe/Berlin    | 2026-10-25T01:00:00Z | false | 2026-10-26T01:30:00Z | 2026-10-26T02:00:00Z
            New York in winter                                  | 0 0 1 * * ?           | 04:00    | America/New_York | 2026-12-02T05:30:00Z | false | 2026-12-02T06:00:00Z | 2026-12-02T10:00:00Z
            Kolkata, half an hour off UTC                       | 0 0 2 * * ?           | 01:00    | Asia/Kolkata     | 2026-12-01T20:45:00Z | true  | 2026-12-01T20:30:00Z | 2026-12-01T21:30:00Z
            a weekend window, open on Sunday                    | 0 0 22 ? * FRI        | 48:00    | UTC              | 2026-12-06T12:00:00Z | true  | 2026-12-04T22:00:00Z | 2026-12-06T22:00:00Z
            a weekend window, closed on Monday                  | 0 0 22 ? * FRI        | 48:00    | UTC              | 2026-12-07T12:00:00Z | false | 2026-12-11T22:00:00Z | 2026-12-13T22:00:00Z
            overlapping starts join: 02:00 and 04:00 for 3 h    | 0 0 2,4 * * ?         | 03:00    | UTC              | 2026-12-02T02:30:00Z | true  | 2026-12-02T02:00:00Z | 2026-12-02T07:00:00Z
            the second of two overlapping starts                | 0 0 2,4 * * ?         | 03:00    | UTC              | 2026-12-02T06:00:00Z | true  | 2026-12-02T04:00:00Z | 2026-12-02T07:00:00Z
            starts that always overlap: open, no end known      | 0 0 * * * ?           | 02:00    | UTC              | 2026-12-02T06:30:00Z | true  | 2026-12-02T06:00:00Z | -
            with seconds: one second before                     | 30 15 2 * * ?         | 00:01    | UTC              | 2026-12-02T02:15:29Z | false | 2026-12-02T02:15:30Z | 2026-12-02T02:16:30Z
            with seconds: on the second                         | 30 15 2 * * ?         | 00:01    | UTC              | 2026-12-02T02:15:30Z | true  | 2026-12-02T02:15:30Z | 2026-12-02T02:16:30Z
            a fraction of a second before the start is outside  | 30 15 2 * * ?         | 00:01    | UTC              | 2026-12-02T02:15:29.999Z | false | 2026-12-02T02:15:30Z | 2026-12-02T02:16:30Z
            a schedule whose last year is over never opens      | 0 0 2 * * ? 2025      | 03:00    | UTC              | 2026-12-02T00:00:00Z | false | -                    | -
            a schedule of a later year opens then               | 0 0 2 1 1 ? 2028      | 03:00    | UTC              | 2026-12-02T00:00:00Z | false | 2028-01-01T02:00:00Z | 2028-01-01T05:00:00Z
            """)
    void openAtAnInstant(String name, String schedule, String duration, String timezone, Instant at, boolean open,
                         Instant opensAt, Instant closesAt) {
        MaintenanceWindow w = MaintenanceWindow.of(new Windows.Window(schedule, duration, timezone));
        assertThat(w.at(at)).as(name).isEqualTo(new MaintenanceWindow.State(open, opensAt, closesAt));
    }
}
