package io.qawk.orchestrator.deployment.model;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.qawk.orchestrator.deployment.model.TimelineEvent.*;
import io.qawk.orchestrator.deployment.store.TimelineWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of timeline entry: its kind, and the words operators read, exactly as they were when the timeline
 * stored only words (the end-to-end tests and people's habits rely on them).
 */
class TimelineEventTest {

    static final Instant FROM = Instant.parse("2026-11-30T18:25:16Z");
    static final Instant TO = Instant.parse("2026-11-30T18:26:01Z");

    static Stream<Arguments> events() {
        return Stream.of(
                row(new Created("in scope of deployment 'd' (manifest 'm')"), RunEventKind.CREATED,
                        "in scope of deployment 'd' (manifest 'm')"),
                row(new Waiting("waiting for deployment \"x\" (#3) to finish with this system"), RunEventKind.WAITING,
                        "waiting for deployment \"x\" (#3) to finish with this system"),
                row(new GivenUp("given up: none of its devices is in the inventory any more"), RunEventKind.GIVEN_UP,
                        "given up: none of its devices is in the inventory any more"),
                row(new Snapshot(List.of(new Photo("term-a", "terminal", 1, "term:1", "term:2"),
                                new Photo("lane", "lane", 2, null, "app:2"))), RunEventKind.SNAPSHOT,
                        "photographed 2 device(s): term-a (terminal, order 1) runs term:1, gets term:2;"
                                + " lane (lane, order 2) runs nothing, gets app:2"),
                row(new OrderSent(1, List.of("term-a", "term-b")), RunEventKind.ORDER_SENT, "order 1 sent to term-a, term-b"),
                row(new Assigned(12, List.of(new Assignment("term-a", 501L), new Assignment("term-b", null))),
                        RunEventKind.ASSIGNED, "hawkBit assigned set 12 to term-a (action 501), term-b"),
                row(new OrderGap(2, 1, "term-b", FROM, Duration.ofMillis(1250)), RunEventKind.ORDER_GAP,
                        "order 2 assigned 1.3 s after order 1's last device (term-b) finished in hawkBit at 18:25:16 UTC"),
                row(new Recovered("term-a", 501L), RunEventKind.RECOVERED,
                        "assignment of term-a found in hawkBit after an interruption (action 501)"),
                row(new Recovered("term-a", null), RunEventKind.RECOVERED,
                        "assignment of term-a found in hawkBit after an interruption"),
                row(new AssignmentRefused("app:4.0", List.of("device-08-a"), "404 distribution set not found"),
                        RunEventKind.ASSIGNMENT_REFUSED, "hawkBit refused app:4.0 for device-08-a: 404 distribution set not found"),
                row(new DeviceFinished("term-a", false), RunEventKind.DEVICE_FINISHED, "device term-a finished"),
                row(new DeviceFinished("term-a", true), RunEventKind.DEVICE_FINISHED, "device term-a is on its previous set again"),
                row(new DeviceFailed("term-a", How.REPORTED, null), RunEventKind.DEVICE_FAILED, "device term-a failed"),
                row(new DeviceFailed("term-a", How.TARGET_DELETED, null), RunEventKind.DEVICE_FAILED,
                        "device term-a failed: its target was deleted in hawkBit"),
                row(new DeviceFailed("term-a", How.TIMED_OUT, Duration.ofMinutes(30)), RunEventKind.DEVICE_FAILED,
                        "device term-a failed: no result within 30 min"),
                row(new DeviceFailed("term-a", How.TIMED_OUT, Duration.ofSeconds(45)), RunEventKind.DEVICE_FAILED,
                        "device term-a failed: no result within 45 s"),
                row(new DeviceVerified("lane", "attribute.app_version==2.0"), RunEventKind.DEVICE_VERIFIED,
                        "device lane reports attribute.app_version==2.0"),
                row(new DeviceNotVerified("lane", "attribute.app_version==2.0", "reports 1.9", Duration.ofMinutes(5)),
                        RunEventKind.DEVICE_NOT_VERIFIED,
                        "device lane failed: it finished but does not report attribute.app_version==2.0 within 5 min"
                                + " (reports 1.9)"),
                row(new DeviceNotVerified("lane", "installedDS.version==2.0", null, Duration.ofSeconds(90)),
                        RunEventKind.DEVICE_NOT_VERIFIED,
                        "device lane failed: it finished but does not report installedDS.version==2.0 within 90 s"),
                row(new SoakStarted(Duration.ofMinutes(10), TO), RunEventKind.SOAK_STARTED,
                        "every component is on its set; verifying for 10 min, until 18:26:01 UTC: every device must"
                                + " keep reporting its health query"),
                row(new SystemUnhealthy("lane stopped reporting attribute.lane_state==scoring 3 min after the update",
                                List.of("lane")), RunEventKind.SYSTEM_UNHEALTHY,
                        "lane stopped reporting attribute.lane_state==scoring 3 min after the update"),
                row(new SoakExtended("hawkBit unreachable", FROM, TO, Duration.ofSeconds(45), Instant.parse(
                                "2026-11-30T18:40:00Z")), RunEventKind.SOAK_EXTENDED,
                        "not observed 18:25:16–18:26:01 UTC (hawkBit unreachable); the soak extended by 45 s, to 18:40:00 UTC"),
                row(RollbackStarted.unhealthy("lane stopped reporting attribute.lane_state==scoring 3 min after the update"),
                        RunEventKind.ROLLBACK_STARTED, "unhealthy during the soak: the whole system goes back"),
                row(new DeviceLeftSystem("term-a"), RunEventKind.DEVICE_LEFT_SYSTEM,
                        "device term-a left the system during the update"),
                row(new DeviceTakenOver("term-a", "term:9", false), RunEventKind.DEVICE_TAKEN_OVER,
                        "device term-a was given term:9 in hawkBit by someone else"),
                row(new DeviceTakenOver("term-a", "another set", true), RunEventKind.DEVICE_TAKEN_OVER,
                        "device term-a was given another set in hawkBit by someone else: left with it"),
                row(RollbackStarted.failure(2, 1), RunEventKind.ROLLBACK_STARTED,
                        "2 device(s) failed at order 1: the whole system goes back"),
                row(RollbackStarted.byHand("PSU smell"), RunEventKind.ROLLBACK_STARTED, "rollback by hand: PSU smell"),
                row(RollbackStarted.byHand(null), RunEventKind.ROLLBACK_STARTED, "rollback by hand"),
                row(new RollbackSent(2, List.of("lane")), RunEventKind.ROLLBACK_SENT, "rollback of order 2 sent to lane"),
                row(new DeviceFailedToGoBack("term-a", How.REPORTED, null), RunEventKind.DEVICE_FAILED_TO_GO_BACK,
                        "device term-a FAILED TO GO BACK"),
                row(new DeviceFailedToGoBack("term-a", How.TARGET_DELETED, null), RunEventKind.DEVICE_FAILED_TO_GO_BACK,
                        "device term-a FAILED TO GO BACK: its target was deleted in hawkBit"),
                row(new DeviceFailedToGoBack("term-a", How.TIMED_OUT, Duration.ofMinutes(30)),
                        RunEventKind.DEVICE_FAILED_TO_GO_BACK, "device term-a FAILED TO GO BACK within 30 min"),
                row(new Succeeded("every component is on its set"), RunEventKind.SUCCEEDED,
                        "succeeded: every component is on its set"),
                row(new RolledBack("1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again"),
                        RunEventKind.ROLLED_BACK,
                        "rolled back: 1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again"),
                row(new RollbackFailed("x; FAILED TO GO BACK: lane"), RunEventKind.ROLLBACK_FAILED,
                        "rollback failed: x; FAILED TO GO BACK: lane"),
                row(new TimeoutsExtended("hawkBit unreachable", FROM, TO, Duration.ofSeconds(45)),
                        RunEventKind.TIMEOUTS_EXTENDED,
                        "not observed 18:25:16–18:26:01 UTC (hawkBit unreachable); order timeouts extended by 45 s"),
                row(new TimelineEvent.RateLimited(FROM, TO, Duration.ofSeconds(3)), RunEventKind.RATE_LIMITED,
                        "waited 3 s on hawkBit's rate limit (429) 18:25:16–18:26:01 UTC; order timeouts extended by 3 s"),
                row(new TimelineEvent.Diverged(List.of(104L, 105L), "records behind hawkBit: lane: actions 104, 105"
                                + " sent by Qawk's user, in no record (recorded WAITING); hawkBit shows app 1.0 finished"),
                        RunEventKind.DIVERGED, "records behind hawkBit: lane: actions 104, 105 sent by Qawk's user, in no"
                                + " record (recorded WAITING); hawkBit shows app 1.0 finished -- nothing new is sent to"
                                + " this system until a person adopts what hawkBit shows or rolls it back"),
                row(new TimelineEvent.Adopted(RunState.ROLLED_BACK, "hawkBit shows lane app 1.0 finished (action 105)"),
                        RunEventKind.ADOPTED, "adopted what hawkBit shows: ROLLED_BACK (hawkBit shows lane app 1.0"
                                + " finished (action 105))"),
                row(new PhotographRebuilt("s1-lane", 105L, "app 2.0", "app 1.0"), RunEventKind.PHOTOGRAPH_REBUILT,
                        "photograph of s1-lane rebuilt from hawkBit's action history: it runs app 2.0 since action 105,"
                                + " sent by Qawk's user after this deployment started and in no record (Qawk's records"
                                + " of it were lost); before that it ran app 1.0"),
                row(new PhotographRebuilt("s1-lane", 105L, "app 2.0", null), RunEventKind.PHOTOGRAPH_REBUILT,
                        "photograph of s1-lane rebuilt from hawkBit's action history: it runs app 2.0 since action 105,"
                                + " sent by Qawk's user after this deployment started and in no record (Qawk's records"
                                + " of it were lost); before that it ran nothing"),
                row(new Paused(), RunEventKind.PAUSED,
                        "deployment paused: nothing new is sent; devices already sent a set finish it"),
                row(new Resumed(), RunEventKind.RESUMED, "deployment resumed"),
                row(new Skipped(), RunEventKind.SKIPPED,
                        "skipped: the deployment was aborted before this system was started"),
                row(new RollbackRequested("PSU smell"), RunEventKind.ROLLBACK_REQUESTED,
                        "rollback by hand requested: PSU smell"),
                row(new RollbackRequested(null), RunEventKind.ROLLBACK_REQUESTED, "rollback by hand requested"),
                row(TakenAgain.byPerson(2, "lane 7 PSU replaced", "1 device(s) failed at order 1 -- rolled back"),
                        RunEventKind.TAKEN_AGAIN,
                        "taken again (attempt 2): lane 7 PSU replaced; before: 1 device(s) failed at order 1 -- rolled back"),
                row(TakenAgain.byPerson(3, null, null), RunEventKind.TAKEN_AGAIN, "taken again (attempt 3); before: null"),
                row(TakenAgain.cameBackIntoScope(), RunEventKind.TAKEN_AGAIN, "back in the channel's scope: taken again"),
                row(new GuardHold(7, "paused", "rollout", 12, "terminals-2.0", List.of("s1-term-a", "s1-term-b"),
                                "paused hawkBit rollout terminals-2.0: its group 1 holds s2-term-a of s2, and then x"),
                        RunEventKind.GUARD_HOLD, "paused hawkBit rollout terminals-2.0: its group 1 holds s2-term-a of"
                                + " s2, and then x (it targets s1-term-a, s1-term-b of this system)"));
    }

    private static Arguments row(TimelineEvent event, RunEventKind kind, String message) {
        return Arguments.of(event, kind, message);
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("events")
    void eachEventHasItsKindAndTheWordsOperatorsKnow(TimelineEvent event, RunEventKind kind, String message) {
        assertThat(event.kind()).isEqualTo(kind);
        assertThat(event.message()).isEqualTo(message);
    }

    @Test
    void everyKindHasAnEventInTheTable() {
        Set<RunEventKind> covered = events().map(a -> (RunEventKind) a.get()[1])
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(RunEventKind.class)));
        assertThat(covered).containsExactlyInAnyOrderElementsOf(Arrays.asList(RunEventKind.values()));
    }

    /** The application's mapper as Quarkus configures it for times (ISO text, not numbers). */
    static final ObjectWriter EVENTS = TimelineWriter.eventWriter(new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS));

    static Map<String, Object> data(TimelineEvent event) throws Exception {
        return new ObjectMapper().readValue(EVENTS.writeValueAsString(event), new TypeReference<>() {
        });
    }

    @Test
    void theDataAreTheRecordsFieldsAsJsonValues() throws Exception {
        assertThat(data(new OrderSent(1, List.of("term-a", "term-b"))))
                .isEqualTo(Map.of("order", 1, "devices", List.of("term-a", "term-b")));
        assertThat(data(new DeviceFailed("term-a", How.TIMED_OUT, Duration.ofMinutes(30))))
                .isEqualTo(Map.of("controllerId", "term-a", "how", "TIMED_OUT", "timeout", "PT30M"));
        assertThat(data(new Assigned(12, List.of(new Assignment("term-a", 501L), new Assignment("term-b", null)))))
                .isEqualTo(Map.of("setId", 12, "devices", List.of(Map.of("controllerId", "term-a", "actionId", 501),
                        Map.of("controllerId", "term-b"))));
        assertThat(data(new TimeoutsExtended("paused", FROM, TO, Duration.ofSeconds(45))))
                .containsEntry("from", "2026-11-30T18:25:16Z").containsEntry("extension", "PT45S");
        assertThat(data(RollbackStarted.failure(2, 1)))
                .isEqualTo(Map.of("cause", "FAILURE", "failedOrder", 1, "failedDevices", 2));
        assertThat(data(new Paused())).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("events")
    void theStoredFieldsAreTheRecordsNonNullComponentsAndNothingElse(TimelineEvent event, RunEventKind kind,
                                                                     String message) throws Exception {
        Set<String> components = new TreeSet<>();
        for (RecordComponent c : event.getClass().getRecordComponents()) {
            if (c.getAccessor().invoke(event) != null) {
                components.add(c.getName());
            }
        }
        assertThat(new TreeSet<>(data(event).keySet())).as("%s, not its kind or words", kind).isEqualTo(components);
    }

    @Test
    void quotesBackslashesAndControlCharactersInTheFieldsAreEscaped() throws Exception {
        String hostile = "lane \"7\" \\ C:\\x\n\t\u0001 ü";
        String json = EVENTS.writeValueAsString(new Created(hostile));
        assertThat(new ObjectMapper().readTree(json).get("why").asText()).isEqualTo(hostile);
        assertThat(json).doesNotContain("\n").contains("\\u0001");
    }
}
