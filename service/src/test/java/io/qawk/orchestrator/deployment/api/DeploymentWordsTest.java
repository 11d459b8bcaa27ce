package io.qawk.orchestrator.deployment.api;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.window.CentreWindows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deployment's words (issue 36): one that ended with no system ever in scope never reads like one that updated
 * systems; a channel's deployment with nothing in scope yet says it waits for systems to join.
 */
class DeploymentWordsTest {

    @ParameterizedTest(name = "{0}, channel {1}, followsChannel {2}, runs \"{3}\": {4}")
    @CsvSource(delimiter = '|', textBlock = """
            FINISHED | -  | false |                       | finished: no system was in scope
            FINISHED | 7  | false |                       | finished: no system was in scope
            ABORTED  | -  | false |                       | aborted: no system was in scope
            FINISHED | 7  | true  |                       | waiting for systems to join
            RUNNING  | 7  | true  |                       | waiting for systems to join
            ABORTED  | 7  | true  |                       | aborted: no system was in scope
            FINISHED | -  | true  |                       | finished: no system was in scope
            DRAFT    | -  | false |                       | draft: nothing moves until it is started
            NEVER    | -  | false |                       | aborted as a draft: it was never started
            FINISHED | -  | false | SUCCEEDED SUCCEEDED   | 2 of 2 updated, 0 rolled back
            FINISHED | 7  | true  | SUCCEEDED ROLLED_BACK | 1 of 2 updated, 1 rolled back
            ABORTED  | -  | false | SKIPPED               | 0 of 1 updated, 0 rolled back, 1 skipped
            """)
    void emptyIsNeverDone(String phase, String channel, boolean followsChannel, String runs, String words) {
        SystemDeployment d = new SystemDeployment();
        d.id = 1L;
        d.name = "d";
        boolean never = phase.equals("NEVER"); // a draft aborted before it was started
        d.phase = never ? DeploymentPhase.ABORTED : DeploymentPhase.valueOf(phase);
        d.aborted = d.phase == DeploymentPhase.ABORTED;
        d.startedAt = never || d.phase == DeploymentPhase.DRAFT ? null : Instant.EPOCH;
        d.channelId = channel.equals("-") ? null : Long.valueOf(channel);
        d.followsChannel = followsChannel;
        List<SystemRun.Tally> tally = new ArrayList<>();
        if (runs != null) {
            for (String state : runs.split(" ")) {
                tally.add(new SystemRun.Tally(RunState.valueOf(state), "c01", 1));
            }
        }
        DeploymentView view = DeploymentView.of(d, "m", tally, CentreWindows.of(null, Instant.EPOCH));
        assertThat(view.summary()).isEqualTo(words);
    }
}
