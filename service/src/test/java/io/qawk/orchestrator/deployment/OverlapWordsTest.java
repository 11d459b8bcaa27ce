package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.ChannelDeployments.DrivenBy;
import io.qawk.orchestrator.deployment.ChannelDeployments.Overlap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The sentence that says who drives a deployment's or a channel's shared systems: one part per driver, counted. */
class OverlapWordsTest {

    private static final DrivenBy BY_HAND = new DrivenBy(1, "2.0 to c01", null, null);
    private static final DrivenBy BETA = new DrivenBy(3, "beta 2.0", 2L, "beta");

    private static Overlap overlap(String system, DrivenBy by, boolean underWay) {
        return new Overlap(system, by, underWay, "");
    }

    @Test
    void noOverlapSaysNothing() {
        assertThat(DeploymentOverlaps.summary(List.of())).isNull();
        assertThat(ChannelDeployments.overlapsSummary(List.of())).isNull();
    }

    @Test
    void oneSentencePerDriverCountsItsSystems() {
        List<Overlap> overlaps = List.of(overlap("lane-01", BY_HAND, true), overlap("lane-02", BETA, true),
                overlap("lane-03", BY_HAND, true), overlap("lane-04", BY_HAND, false));
        assertThat(DeploymentOverlaps.summary(overlaps)).isEqualTo(
                "2 systems are driven by deployment \"2.0 to c01\" (#1): they wait for it; "
                        + "1 system is driven by deployment \"beta 2.0\" (#3) of channel beta: it waits for it; "
                        + "1 system is also pending in deployment \"2.0 to c01\" (#1): the first to start it drives it");
    }

    @Test
    void aChannelsSentenceSaysWhatAReleaseThereWouldDo() {
        assertThat(ChannelDeployments.overlapsSummary(List.of(overlap("lane-01", BETA, true), overlap("lane-02", BETA, true),
                overlap("lane-03", BY_HAND, false), overlap("lane-04", BY_HAND, false)))).isEqualTo(
                "2 systems of this channel are driven by deployment \"beta 2.0\" (#3) of channel beta: a release here"
                        + " takes them once that one is done with them; 2 systems of this channel are also pending in"
                        + " deployment \"2.0 to c01\" (#1): the first to start each drives it");
    }
}
