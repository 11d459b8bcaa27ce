package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.channel.ReleaseDevice.State;
import io.qawk.orchestrator.channel.ReleasePlanner.Change;
import io.qawk.orchestrator.channel.ReleasePlanner.Completion;
import io.qawk.orchestrator.channel.ReleasePlanner.Device;
import io.qawk.orchestrator.channel.ReleasePlanner.Evaluation;
import io.qawk.orchestrator.channel.ReleasePlanner.Halt;
import io.qawk.orchestrator.channel.ReleasePlanner.Membership;
import io.qawk.orchestrator.channel.ReleasePlanner.Observed;
import io.qawk.orchestrator.channel.ReleasePlanner.Release;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.observation.Outcome;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A channel "pilot" whose release sends app:2.0 to its standalone devices, 30-minute order timeouts. Each table row is
 * one situation of one step of a pass; the column names say what it is.
 */
class ReleasePlannerTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    /** Not halted, nothing accepted, never completed; 2 device failures allowed, batches of 3, 1 system failure. */
    static Release release() {
        return new Release(false, 0, null, "pilot", 2, 3, 1);
    }

    static Device device(String id, State state) {
        return new Device(id, state, state == State.ASSIGNED ? T0 : null, state == State.ASSIGNED ? 7L : null);
    }

    static Device assignedAt(String id, Instant at) {
        return new Device(id, State.ASSIGNED, at, null);
    }

    @Nested
    class Membership_ {

        @ParameterizedTest(name = "{0} device, member: {1} -> left: {2}")
        @CsvSource({
                "PENDING,  true,  false",
                "PENDING,  false, true",
                "ASSIGNED, true,  false",
                "ASSIGNED, false, false",
                "ON_SET,   false, false",
                "ALREADY,  false, false",
                "FAILED,   false, false",
                "LEFT,     false, false",
                "LEFT,     true,  false",
        })
        void onlyAPendingDeviceThatIsNoLongerAMemberLeaves(State state, boolean member, boolean leaves) {
            Membership m = ReleasePlanner.membership(List.of(device("dev-1", state)),
                    member ? Set.of("dev-1") : Set.of());
            assertThat(m.left()).hasSize(leaves ? 1 : 0);
            assertThat(m.joined()).isEmpty();
            m.left().forEach(c -> {
                assertThat(c.controllerId()).isEqualTo("dev-1");
                assertThat(c.state()).isEqualTo(State.LEFT);
                assertThat(c.detail()).isEqualTo(ReleasePlanner.LEFT_DETAIL)
                        .contains("left the channel").contains("matches a component");
            });
        }

        @Test
        void newMembersJoinInNameOrderAndKnownOnesDoNotJoinAgain() {
            Membership m = ReleasePlanner.membership(List.of(device("dev-2", State.LEFT), device("dev-4", State.ON_SET)),
                    Set.of("dev-5", "dev-2", "dev-3", "dev-4", "dev-1"));
            assertThat(m.joined()).containsExactly("dev-1", "dev-3", "dev-5");
            assertThat(m.left()).isEmpty();
        }

        @Test
        void noMembersAndNoDevicesDecideNothing() {
            Membership m = ReleasePlanner.membership(List.of(), Set.of());
            assertThat(m.left()).isEmpty();
            assertThat(m.joined()).isEmpty();
        }
    }

    @Nested
    class Outcomes {

        @ParameterizedTest(name = "{0} after {1} min -> {2} ({3})")
        @CsvSource(nullValues = "-", value = {
                "SUCCEEDED,  1, ON_SET, -",
                "SUCCEEDED, 45, ON_SET, -",
                "FAILED,     1, FAILED, the device reported a failure",
                "GONE,       1, FAILED, its target was deleted in hawkBit",
                "TAKEN_OVER, 1, FAILED, given another set in hawkBit by someone else",
                "RUNNING,    0, -,      -",
                "RUNNING,   29, -,      -",
                "RUNNING,   30, FAILED, no result within 30 min",
                "RUNNING,   31, FAILED, no result within 30 min",
                "LEFT,      29, -,      -",
                "LEFT,      30, FAILED, no result within 30 min",
        })
        void whatHawkbitSaidOfADeviceInFlight(Outcome outcome, int minutes, State expected, String detail) {
            Observed o = ReleasePlanner.observed(release(), List.of(device("dev-1", State.ASSIGNED)),
                    Map.of("dev-1", outcome), 0, T0.plus(Duration.ofMinutes(minutes)), TIMEOUT);
            if (expected == null) {
                assertThat(o.changes()).isEmpty();
            } else {
                assertThat(o.changes()).containsExactly(new Change("dev-1", expected, detail, null, null));
            }
        }

        @ParameterizedTest(name = "no word from hawkBit after {0} s -> failed: {1}")
        @CsvSource({"0, false", "1799, false", "1800, true", "7200, true"})
        void aDeviceHawkbitSaidNothingOfIsStillAtIt(long seconds, boolean failed) {
            Observed o = ReleasePlanner.observed(release(), List.of(device("dev-1", State.ASSIGNED)), Map.of(), 0,
                    T0.plusSeconds(seconds), TIMEOUT);
            assertThat(o.changes()).extracting(Change::state).containsExactly(failed ? new State[]{State.FAILED}
                    : new State[0]);
        }

        @Test
        void aDeviceWithoutAnAssignmentTimeNeverTimesOut() {
            Observed o = ReleasePlanner.observed(release(), List.of(assignedAt("dev-1", null)), Map.of(), 0,
                    T0.plus(Duration.ofDays(30)), TIMEOUT);
            assertThat(o.changes()).isEmpty();
        }

        @Test
        void theTimeoutIsSaidInWholeMinutes() {
            Observed o = ReleasePlanner.observed(release(), List.of(device("dev-1", State.ASSIGNED)), Map.of(), 0,
                    T0.plus(Duration.ofHours(3)), Duration.ofMinutes(90).plusSeconds(59));
            assertThat(o.changes()).extracting(Change::detail).containsExactly("no result within 90 min");
        }

        @Test
        void eachDeviceIsDecidedOnItsOwn() {
            List<Device> assigned = List.of(assignedAt("a", T0), assignedAt("b", T0), assignedAt("c", T0.minus(TIMEOUT)),
                    assignedAt("d", T0));
            Observed o = ReleasePlanner.observed(release(), assigned, Map.of("a", Outcome.SUCCEEDED, "b", Outcome.RUNNING,
                    "d", Outcome.GONE), 0, T0, TIMEOUT);
            assertThat(o.changes()).extracting(Change::controllerId, Change::state).containsExactly(
                    Tuple.tuple("a", State.ON_SET),
                    Tuple.tuple("c", State.FAILED),
                    Tuple.tuple("d", State.FAILED));
        }
    }

    @Nested
    class DeviceBudget {

        @ParameterizedTest(name = "halted {0}, {1} failed before + {2} now, {3} accepted, {4} allowed -> halt: {5}")
        @CsvSource({
                "false, 0, 0, 0, 2, false",
                "false, 2, 0, 0, 2, false",
                "false, 1, 1, 0, 2, false",
                "false, 2, 1, 0, 2, true",
                "false, 0, 3, 0, 2, true",
                "false, 3, 0, 0, 2, true",
                "false, 0, 1, 0, 0, true",
                "false, 0, 0, 0, 0, false",
                "false, 4, 1, 3, 2, false",
                "false, 4, 1, 2, 2, true",
                "true,  9, 9, 0, 2, false",
        })
        void tooManyFailuresBeyondThoseAPersonAcceptedHalt(boolean halted, long before, int now, int accepted,
                                                           int allowed, boolean halts) {
            Release r = new Release(halted, accepted, null, "pilot", allowed, 3, 1);
            List<Device> assigned = new ArrayList<>();
            Map<String, Outcome> outcomes = new HashMap<>();
            for (int i = 0; i < now; i++) {
                assigned.add(device("failing-" + i, State.ASSIGNED));
                outcomes.put("failing-" + i, Outcome.FAILED);
            }
            Observed o = ReleasePlanner.observed(r, assigned, outcomes, before, T0, TIMEOUT);
            assertThat(o.halt()).isEqualTo(halts ? Optional.of(new Halt(ChannelRelease.HaltCause.DEVICES,
                    (before + now) + " standalone device(s) failed, more than channel 'pilot' allows (" + allowed + ")"))
                    : Optional.empty());
        }

        @Test
        void aTimeoutCountsAsAFailure() {
            Release r = new Release(false, 0, null, "pilot", 0, 3, 1);
            Observed o = ReleasePlanner.observed(r, List.of(device("slow", State.ASSIGNED)), Map.of(), 0,
                    T0.plus(TIMEOUT), TIMEOUT);
            assertThat(o.halt()).map(Halt::cause).contains(ChannelRelease.HaltCause.DEVICES);
        }
    }

    @Nested
    class NextBatch {

        @ParameterizedTest(name = "batches of {0}, {1} in flight, {2} finish now, halted {3} -> takes {4}")
        @CsvSource({
                "3, 0, 0, false, 3",
                "3, 1, 0, false, 2",
                "3, 3, 0, false, 0",
                "3, 3, 1, false, 1",
                "3, 3, 3, false, 3",
                "1, 0, 0, false, 1",
                "3, 0, 0, true,  0",
                "3, 2, 2, true,  0",
        })
        void theBatchFillsWhatTheDevicesStillInFlightLeave(int batchSize, int inFlight, int finishing, boolean halted,
                                                           int takes) {
            Release r = new Release(halted, 0, null, "pilot", 100, batchSize, 1);
            List<Device> assigned = new ArrayList<>();
            Map<String, Outcome> outcomes = new HashMap<>();
            for (int i = 0; i < inFlight; i++) {
                assigned.add(device("dev-" + i, State.ASSIGNED));
                if (i < finishing) {
                    outcomes.put("dev-" + i, Outcome.SUCCEEDED);
                }
            }
            assertThat(ReleasePlanner.observed(r, assigned, outcomes, 0, T0, TIMEOUT).batchSize()).isEqualTo(takes);
        }

        @Test
        void aBatchIsHeldBackByTheHaltOfThisVeryPass() {
            Release r = new Release(false, 0, null, "pilot", 0, 3, 1);
            Observed o = ReleasePlanner.observed(r, List.of(device("bad", State.ASSIGNED)), Map.of("bad", Outcome.FAILED),
                    0, T0, TIMEOUT);
            assertThat(o.halt()).isPresent();
            assertThat(o.batchSize()).isZero();
        }

        @Test
        void moreInFlightThanABatchTakesNothing() {
            Release r = new Release(false, 0, null, "pilot", 100, 1, 1); // the batch size was lowered meanwhile
            List<Device> assigned = List.of(device("a", State.ASSIGNED), device("b", State.ASSIGNED));
            assertThat(ReleasePlanner.observed(r, assigned, Map.of(), 0, T0, TIMEOUT).batchSize()).isZero();
        }
    }

    @Nested
    class Sending {

        @ParameterizedTest(name = "already on it {0}, unknown to hawkBit {1}, action {2} -> sent {3}, {4} ({5})")
        @CsvSource(nullValues = "-", value = {
                "false, false, 41, true,  ASSIGNED, -",
                "false, false, -,  true,  ASSIGNED, -",
                "true,  false, -,  false, ALREADY,  already on app:2.0",
                "false, true,  -,  true,  FAILED,   hawkBit no longer knows this target",
                "true,  true,  -,  false, ALREADY,  already on app:2.0",
        })
        void whatBecomesOfADeviceOfTheBatch(boolean already, boolean dropped, Long action, boolean sent, State state,
                                            String detail) {
            Set<String> on = already ? Set.of("dev-1") : Set.of();
            assertThat(ReleasePlanner.toAssign(List.of("dev-1"), on)).hasSize(sent ? 1 : 0);
            List<Change> changes = ReleasePlanner.sent(List.of("dev-1"), on, dropped ? Set.of("dev-1") : Set.of(),
                    action == null ? Map.of() : Map.of("dev-1", action), "app:2.0", T0);
            Instant at = state == State.ASSIGNED ? T0 : null;
            assertThat(changes).containsExactly(new Change("dev-1", state, detail, at, action));
        }

        @Test
        void theBatchKeepsItsOrder() {
            List<String> batch = List.of("c", "a", "b");
            assertThat(ReleasePlanner.toAssign(batch, Set.of("a"))).containsExactly("c", "b");
            assertThat(ReleasePlanner.sent(batch, Set.of("a"), Set.of(), Map.of(), "app:2.0", T0))
                    .extracting(Change::controllerId).containsExactly("c", "a", "b");
        }
    }

    @Nested
    class Evaluating {

        @ParameterizedTest(name = "halted {0}, deployment {1}, set {2} with {3} open, completed {4} -> halt {5}, {6}")
        @CsvSource(nullValues = "-", value = {
                // both halves done
                "false, FINISHED, true,  0, false, false, COMPLETED",
                "false, FINISHED, true,  0, true,  false, UNCHANGED",
                "false, FINISHED, false, 0, false, false, COMPLETED",
                "false, -,        true,  0, false, false, COMPLETED",
                "false, -,        true,  0, true,  false, UNCHANGED",
                // one half open
                "false, FINISHED, true,  1, false, false, UNCHANGED",
                "false, FINISHED, true,  1, true,  false, REOPENED",
                "false, RUNNING,  true,  0, false, false, UNCHANGED",
                "false, RUNNING,  false, 0, true,  false, REOPENED",
                "false, -,        true,  5, true,  false, REOPENED",
                "false, PAUSED,   false, 0, false, false, UNCHANGED",
                "false, ABORTING, false, 0, false, false, UNCHANGED",
                "false, ABORTED,  false, 0, false, false, UNCHANGED",
                "false, ABORTED,  false, 0, true,  false, REOPENED",
                // a failed deployment halts; a halted release is never complete
                "false, FAILED,   true,  0, false, true,  UNCHANGED",
                "false, FAILED,   true,  0, true,  true,  REOPENED",
                "true,  FAILED,   true,  0, false, false, UNCHANGED",
                "true,  FINISHED, true,  0, false, false, UNCHANGED",
                "true,  FINISHED, true,  0, true,  false, REOPENED",
                "true,  -,        true,  0, false, false, UNCHANGED",
        })
        void haltAndCompletion(boolean halted, DeploymentPhase phase, boolean hasSet, long open, boolean completed,
                               boolean halts, Completion completion) {
            Release r = new Release(halted, 0, completed ? T0 : null, "pilot", 2, 3, 1);
            Evaluation e = ReleasePlanner.evaluate(r, phase, 2, hasSet, open);
            assertThat(e.halt().isPresent()).isEqualTo(halts);
            assertThat(e.completion()).isEqualTo(completion);
        }

        @Test
        void theSystemsHaltSaysHowManyWentBackAndWhatTheOrchestratorAllows() {
            Evaluation e = ReleasePlanner.evaluate(release(), DeploymentPhase.FAILED, 2, false, 0);
            assertThat(e.halt()).contains(new Halt(ChannelRelease.HaltCause.SYSTEMS,
                    "2 system(s) rolled back, more than the orchestrator of 'pilot' allows (1)"));
        }
    }

    @Nested
    class Following {

        @ParameterizedTest(name = "halted {0}, deployment {1} -> follows the channel: {2}")
        @CsvSource(nullValues = "-", value = {"false, 4, true", "true, 4, false", "false, -, false", "true, -, false"})
        void aHaltedReleasesDeploymentDoesNotFollowTheChannel(boolean halted, Long deploymentId, boolean follows) {
            assertThat(ReleasePlanner.followsChannel(halted, deploymentId)).isEqualTo(follows);
        }
    }
}
