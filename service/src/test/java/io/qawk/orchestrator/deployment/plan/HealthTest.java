package io.qawk.orchestrator.deployment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How verdicts of several sources (health queries, gates) combine in {@link SystemHealth}: the worse one wins. */
class HealthTest {

    static final Health BAD_LANE = Health.unhealthy("lane stopped reporting attribute.lane_state==scoring", List.of("lane"));
    static final Health BAD_RATE = Health.unhealthy("error rate 4% over 1% for 2 min", List.of());
    static final Health NOT_KNOWN = Health.unknown("prometheus did not answer");

    @Test
    void unhealthyBeatsUnknownBeatsHealthy() {
        assertThat(Health.HEALTHY.and(Health.HEALTHY)).isEqualTo(Health.HEALTHY);
        assertThat(Health.HEALTHY.and(NOT_KNOWN)).isEqualTo(NOT_KNOWN);
        assertThat(NOT_KNOWN.and(Health.HEALTHY)).isEqualTo(NOT_KNOWN);
        assertThat(NOT_KNOWN.and(BAD_LANE)).isEqualTo(BAD_LANE);
        assertThat(BAD_LANE.and(NOT_KNOWN)).isEqualTo(BAD_LANE);
        assertThat(BAD_LANE.and(Health.HEALTHY)).isEqualTo(BAD_LANE);
        assertThat(Health.HEALTHY.and(null)).isEqualTo(Health.HEALTHY);
    }

    @Test
    void twoUnhealthyVerdictsKeepBothReasonsAndDevices() {
        Health both = BAD_LANE.and(BAD_RATE);
        assertThat(both.verdict()).isEqualTo(Health.Verdict.UNHEALTHY);
        assertThat(both.why()).isEqualTo("lane stopped reporting attribute.lane_state==scoring; error rate 4% over 1% for 2 min");
        assertThat(both.devices()).containsExactly("lane");
    }

    @Test
    void aVerdictOtherThanHealthyMustSayWhy() {
        assertThatThrownBy(() -> Health.unhealthy(" ", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Health.unknown(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
