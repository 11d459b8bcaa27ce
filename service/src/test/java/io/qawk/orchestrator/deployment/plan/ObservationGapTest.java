package io.qawk.orchestrator.deployment.plan;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Which stretch nobody observed, and why: a gap's cause and length as operators read them in the timeline. */
class ObservationGapTest {

    static final Instant T0 = Instant.parse("2026-12-04T18:25:16Z");
    static final Duration FRESH = Duration.ofSeconds(20);
    static final ObservationGap.Observer ME = new ObservationGap.Observer("me", T0.minusSeconds(3600), Duration.ofMillis(80));

    static Optional<ObservationGap.Stretch> gap(ObservationGap.Last last, ObservationGap.Marked marked, long after,
                                                ObservationGap.Observer me) {
        return ObservationGap.of(last, marked, T0.plusSeconds(after), FRESH, me);
    }

    @Test
    void aGapNoLongerThanAnObservationStaysFreshAllCounts() {
        ObservationGap.Last last = new ObservationGap.Last(T0, "me");
        assertThat(gap(last, null, 1, ME)).isEmpty();
        assertThat(gap(last, null, 20, ME)).as("exactly fresh-for").isEmpty();
        assertThat(gap(null, null, 500, ME)).as("observed for the first time").isEmpty();
        assertThat(gap(new ObservationGap.Last(T0.plusSeconds(5), "me"), null, 1, ME)).as("a clock that went back")
                .isEmpty();
    }

    @Test
    void aLongerGapIsNotCountedAtAllFromTheLastObservation() {
        ObservationGap.Stretch s = gap(new ObservationGap.Last(T0, "me"), null, 21, ME).orElseThrow();
        assertThat(s.from()).isEqualTo(T0);
        assertThat(s.to()).isEqualTo(T0.plusSeconds(21));
        assertThat(s.seconds()).isEqualTo(21);
        assertThat(new ObservationGap.Stretch(T0, T0.plusMillis(45_001), "x").seconds()).as("rounded up").isEqualTo(46);
    }

    @Test
    void hawkbitThatKeptTheLastPassWaitingForMostOfTheGapIsTheCause() {
        ObservationGap.Observer waited = new ObservationGap.Observer("me", ME.startedAt(), Duration.ofSeconds(45));
        assertThat(gap(new ObservationGap.Last(T0, "me"), null, 46, waited)).map(ObservationGap.Stretch::cause)
                .contains("hawkBit did not answer for 45 s");
        ObservationGap.Observer briefly = new ObservationGap.Observer("me", ME.startedAt(), Duration.ofSeconds(10));
        assertThat(gap(new ObservationGap.Last(T0, "me"), null, 46, briefly)).map(ObservationGap.Stretch::cause)
                .contains("Qawk's passes were held up for 46 s");
        assertThat(gap(new ObservationGap.Last(T0, "me"), null, 46,
                new ObservationGap.Observer("me", ME.startedAt(), null))).map(ObservationGap.Stretch::cause)
                .contains("Qawk's passes were held up for 46 s");
    }

    /** Issue 42: passes that failed because Qawk's own database was away name it, as hawkBit away is named. */
    @Test
    void passesThatFoundTheDatabaseUnreachableNameIt() {
        ObservationGap.Observer databaseAway = new ObservationGap.Observer("me", ME.startedAt(), Duration.ofMillis(80),
                T0.plusSeconds(2));
        assertThat(gap(new ObservationGap.Last(T0, "me"), null, 46, databaseAway)).map(ObservationGap.Stretch::cause)
                .contains("Qawk's database was unreachable");
        assertThat(gap(new ObservationGap.Last(T0, "other"), null, 46, databaseAway)).as("another replica's gap")
                .map(ObservationGap.Stretch::cause).contains("the replica observing it stopped");
    }

    @Test
    void anotherProcessesLastObservationIsADownServiceOrAReplicaThatStopped() {
        ObservationGap.Observer restarted = new ObservationGap.Observer("me", T0.plusSeconds(30), null);
        assertThat(gap(new ObservationGap.Last(T0, "before"), null, 41, restarted)).map(ObservationGap.Stretch::cause)
                .contains("Qawk was not running");
        assertThat(gap(new ObservationGap.Last(T0, "other"), null, 41, ME)).map(ObservationGap.Stretch::cause)
                .contains("the replica observing it stopped");
    }

    @Test
    void aStretchMarkedAsItHappenedKeepsItsStartAndCauseWhateverItsLength() {
        ObservationGap.Marked marked = new ObservationGap.Marked(T0, "hawkBit unreachable");
        ObservationGap.Stretch s = gap(new ObservationGap.Last(T0, "me"), marked, 3, ME).orElseThrow();
        assertThat(s).isEqualTo(new ObservationGap.Stretch(T0, T0.plusSeconds(3), "hawkBit unreachable"));
        assertThat(gap(null, new ObservationGap.Marked(T0.plusSeconds(9), "paused"), 3, ME))
                .as("marked after the question was sent: nothing to extend").isEmpty();
    }

    @Test
    void nothingIsDueBeforeTheObservationAfterTheGapAndAGrace() {
        ObservationGap.Stretch s = new ObservationGap.Stretch(T0, T0.plusSeconds(45), "x");
        assertThat(ObservationGap.notBefore(s, Duration.ofSeconds(60))).isEqualTo(T0.plusSeconds(105));
        assertThat(ObservationGap.notBefore(null, Duration.ofSeconds(60))).isNull();
    }
}
