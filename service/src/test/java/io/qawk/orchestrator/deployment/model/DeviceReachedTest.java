package io.qawk.orchestrator.deployment.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RunDevice#reached}: the fields a device keeps when a decision brings it to a state, decided by the model and
 * only written by the store.
 */
class DeviceReachedTest {

    static final Instant EARLIER = Instant.parse("2026-01-01T09:00:00Z");
    static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    static final Instant REPORTED = Instant.parse("2026-01-01T09:59:00Z");

    private static RunDevice device() {
        RunDevice d = new RunDevice();
        d.intentAt = EARLIER;
        d.assignedAt = EARLIER;
        d.actionId = 41L;
        d.unobservedSeconds = 12;
        d.reportedAt = null;
        return d;
    }

    @Test
    void assigningStartsAFreshIntentAndForgetsTheAction() {
        RunDevice d = device();
        d.reportedAt = EARLIER;
        d.reached(DeviceState.ASSIGNING, NOW, REPORTED);
        assertThat(d.intentAt).isEqualTo(NOW);
        assertThat(d.assignedAt).isNull();
        assertThat(d.actionId).isNull();
        assertThat(d.unobservedSeconds).isZero();
        assertThat(d.reportedAt).isNull();
        assertThat(d.finishedAt).isNull();
    }

    @Test
    void goingBackKeepsTheForwardAction() {
        RunDevice d = device();
        d.reached(DeviceState.ROLLBACK_ASSIGNING, NOW, REPORTED);
        assertThat(d.intentAt).isEqualTo(NOW);
        assertThat(d.actionId).as("recovery looks for a newer one").isEqualTo(41L);
    }

    @Test
    void verifyingCountsItsTimeoutAfreshAndKeepsWhenItFinished() {
        RunDevice d = device();
        d.reached(DeviceState.VERIFYING, NOW, REPORTED);
        assertThat(d.verifyingSince).isEqualTo(NOW);
        assertThat(d.unobservedSeconds).isZero();
        assertThat(d.reportedAt).isEqualTo(REPORTED);
        assertThat(d.finishedAt).isEqualTo(NOW);
    }

    @Test
    void succeededKeepsTheFirstReportedTime() {
        RunDevice d = device();
        d.reportedAt = EARLIER;
        d.reached(DeviceState.SUCCEEDED, NOW, REPORTED);
        assertThat(d.reportedAt).isEqualTo(EARLIER);
        assertThat(d.finishedAt).isEqualTo(NOW);
    }

    @Test
    void anEndedDeviceFinishedNowAndAnAssignedOneDidNot() {
        for (DeviceState s : new DeviceState[] {DeviceState.FAILED, DeviceState.ROLLED_BACK, DeviceState.ROLLBACK_FAILED,
                DeviceState.LEFT_SYSTEM, DeviceState.TAKEN_OVER}) {
            RunDevice d = device();
            d.reached(s, NOW, REPORTED);
            assertThat(d.finishedAt).as(s.name()).isEqualTo(NOW);
            assertThat(d.reportedAt).as(s.name()).isNull();
        }
        RunDevice d = device();
        d.reached(DeviceState.ASSIGNED, NOW, REPORTED);
        assertThat(d.finishedAt).isNull();
        assertThat(d.intentAt).isEqualTo(EARLIER);
        assertThat(d.actionId).isEqualTo(41L);
    }
}
