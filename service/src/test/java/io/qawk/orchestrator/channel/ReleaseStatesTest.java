package io.qawk.orchestrator.channel;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A release's device and a release change state only through their guards, and only along the documented moves. */
class ReleaseStatesTest {

    static final Set<String> DEVICE_MOVES = Set.of("PENDING>ASSIGNED", "PENDING>ALREADY", "PENDING>FAILED",
            "PENDING>LEFT", "ASSIGNED>ON_SET", "ASSIGNED>FAILED");

    static Stream<Arguments> deviceMoves() {
        List<Arguments> out = new ArrayList<>();
        for (ReleaseDevice.State from : ReleaseDevice.State.values()) {
            for (ReleaseDevice.State to : ReleaseDevice.State.values()) {
                out.add(Arguments.of(from, to));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("deviceMoves")
    void aReleaseDeviceMovesOnlyAlongItsDiagram(ReleaseDevice.State from, ReleaseDevice.State to) {
        if (from == to || DEVICE_MOVES.contains(from + ">" + to)) {
            assertThat(from.to(to)).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> from.to(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("a release's device cannot go from " + from + " to " + to);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("releaseMoves")
    void aReleaseIsSupersededOnceAndNeverCurrentAgain(ChannelRelease.State from, ChannelRelease.State to, boolean allowed) {
        if (allowed) {
            assertThat(from.to(to)).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> from.to(to)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("a release cannot go from " + from + " to " + to);
        }
    }

    static Stream<Arguments> releaseMoves() {
        return Stream.of(Arguments.of(ChannelRelease.State.CURRENT, ChannelRelease.State.SUPERSEDED, true),
                Arguments.of(ChannelRelease.State.CURRENT, ChannelRelease.State.CURRENT, true),
                Arguments.of(ChannelRelease.State.SUPERSEDED, ChannelRelease.State.SUPERSEDED, true),
                Arguments.of(ChannelRelease.State.SUPERSEDED, ChannelRelease.State.CURRENT, false));
    }
}
