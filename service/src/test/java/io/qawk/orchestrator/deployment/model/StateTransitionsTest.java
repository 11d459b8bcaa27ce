package io.qawk.orchestrator.deployment.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one guard of each state enum: every move listed here passes and returns its target, every other pair (staying
 * put included) throws, naming both states. The lists are written out as docs/design.md has them, not derived from
 * the enums, so a move added to or dropped from an enum without the doc fails here.
 */
class StateTransitionsTest {

    /** Run states, as in docs/design.md ("Run states: …"). */
    static final Set<String> RUN_MOVES = Set.of(
            "PENDING>RUNNING", "RUNNING>SUCCEEDED",
            "RUNNING>VERIFYING", "VERIFYING>SUCCEEDED", "VERIFYING>ROLLING_BACK",
            "RUNNING>ROLLING_BACK", "ROLLING_BACK>ROLLED_BACK", "ROLLING_BACK>ROLLBACK_FAILED",
            "SUCCEEDED>ROLLING_BACK",
            "ROLLED_BACK>PENDING", "ROLLBACK_FAILED>PENDING",
            "PENDING>SKIPPED",
            "PENDING>GIVEN_UP", "GIVEN_UP>PENDING");

    /** Device states, as in docs/design.md ("Device states: …"). */
    static final Set<String> DEVICE_MOVES = Set.of(
            "WAITING>ASSIGNING", "WAITING>ALREADY_ON_SET", "WAITING>NOT_SENT",
            "ASSIGNING>ASSIGNED", "ASSIGNING>WAITING", "ASSIGNING>FAILED",
            "ASSIGNED>SUCCEEDED", "ASSIGNED>FAILED",
            "ASSIGNED>VERIFYING", "VERIFYING>SUCCEEDED", "VERIFYING>FAILED",
            "VERIFYING>ROLLBACK_WAITING", "VERIFYING>LEFT_AS_IS", "VERIFYING>LEFT_SYSTEM",
            "SUCCEEDED>ROLLBACK_WAITING", "FAILED>ROLLBACK_WAITING", "SUCCEEDED>LEFT_AS_IS", "FAILED>LEFT_AS_IS",
            "ROLLBACK_WAITING>ROLLBACK_ASSIGNING", "ROLLBACK_WAITING>KEPT",
            "ROLLBACK_ASSIGNING>ROLLBACK_ASSIGNED", "ROLLBACK_ASSIGNING>ROLLBACK_WAITING",
            "ROLLBACK_ASSIGNING>ROLLBACK_FAILED",
            "ROLLBACK_ASSIGNED>ROLLED_BACK", "ROLLBACK_ASSIGNED>ROLLBACK_FAILED",
            "WAITING>LEFT_SYSTEM", "ALREADY_ON_SET>LEFT_SYSTEM", "ASSIGNED>LEFT_SYSTEM", "SUCCEEDED>LEFT_SYSTEM",
            "FAILED>LEFT_SYSTEM",
            "ASSIGNED>TAKEN_OVER", "ROLLBACK_ASSIGNED>TAKEN_OVER");

    static Stream<Arguments> runPairs() {
        return pairs(RunState.values(), RUN_MOVES);
    }

    static Stream<Arguments> devicePairs() {
        return pairs(DeviceState.values(), DEVICE_MOVES);
    }

    private static <E extends Enum<E>> Stream<Arguments> pairs(E[] values, Set<String> allowed) {
        return Arrays.stream(values).flatMap(from -> Arrays.stream(values)
                .map(to -> Arguments.of(from, to, allowed.contains(from + ">" + to))));
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @MethodSource("runPairs")
    void aRunMovesOnlyAlongTheListedTransitions(RunState from, RunState to, boolean allowed) {
        assertThat(from.canGo(to)).isEqualTo(allowed);
        if (allowed) {
            assertThat(from.to(to)).isSameAs(to);
        } else {
            assertThatThrownBy(() -> from.to(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("a run cannot go from " + from + " to " + to);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @MethodSource("devicePairs")
    void aDeviceMovesOnlyAlongTheListedTransitions(DeviceState from, DeviceState to, boolean allowed) {
        assertThat(from.canGo(to)).isEqualTo(allowed);
        if (allowed) {
            assertThat(from.to(to)).isSameAs(to);
        } else {
            assertThatThrownBy(() -> from.to(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("a device cannot go from " + from + " to " + to);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listedMoves")
    void everyListedMoveNamesRealStates(String move) {
        String[] parts = move.split(">");
        assertThat(parts).hasSize(2);
        Set<String> names = new HashSet<>();
        Arrays.stream(RunState.values()).forEach(s -> names.add("run:" + s));
        Arrays.stream(DeviceState.values()).forEach(s -> names.add("device:" + s));
        String kind = RUN_MOVES.contains(move) ? "run:" : "device:";
        assertThat(names).contains(kind + parts[0], kind + parts[1]);
    }

    static Stream<String> listedMoves() {
        return Stream.concat(RUN_MOVES.stream(), DEVICE_MOVES.stream()).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("terminalRuns")
    void aTerminalRunMovesOnlyWhenTakenAgain(RunState terminal) {
        assertThat(terminal.next()).isSubsetOf(List.of(RunState.PENDING, RunState.ROLLING_BACK));
    }

    static Stream<RunState> terminalRuns() {
        return Arrays.stream(RunState.values()).filter(RunState::terminal);
    }
}
