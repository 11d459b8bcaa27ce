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
 * systems; a channel's deployment with nothing in scope yet says so in the words of its phase (issue 56: never
 * "finished" beside "waiting"); held systems are counted; a rollback asked for reads as going back; a failed deployment
 * says which limit stopped it, with its figures.
 */
class DeploymentWordsTest {

    @ParameterizedTest(name = "{0}, channel {1}, followsChannel {2}, runs \"{3}\": {4}")
    @CsvSource(delimiter = '|', textBlock = """
            FINISHED | -  | false |                       | finished: no system was in scope
            FINISHED | 7  | false |                       | finished: no system was in scope
            ABORTED  | -  | false |                       | aborted: no system was in scope
            FINISHED | 7  | true  |                       | finished: no system in the channel's scope yet; it takes systems as they join
            RUNNING  | 7  | true  |                       | following the channel: no system in its scope yet
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

    /**
     * Runs written {@code STATE[:asked][:failure][:held]}: {@code SUCCEEDED:asked} a rollback by hand asked for,
     * {@code ROLLED_BACK:failure} sent back after a failure, {@code PENDING:held} held by a compatibility rule.
     */
    @ParameterizedTest(name = "{0} maxFailed {1}, runs \"{2}\": {3}")
    @CsvSource(delimiter = '|', textBlock = """
            RUNNING  | 0 | SUCCEEDED SUCCEEDED PENDING:held        | 2 of 3 updated, 0 rolled back, 1 held
            RUNNING  | 0 | SUCCEEDED PENDING:held PENDING:held     | 1 of 3 updated, 0 rolled back, 2 held
            RUNNING  | 0 | SUCCEEDED:asked SUCCEEDED               | 1 of 2 updated, 0 rolled back, 1 rolling back
            FAILED   | 0 | ROLLED_BACK:failure PENDING             | 0 of 2 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started
            FAILED   | 1 | ROLLED_BACK:failure ROLLBACK_FAILED:failure SUCCEEDED | 1 of 3 updated, 2 rolled back (1 failed to go back); failed: 2 systems rolled back, maxFailed 1 allows 1: no new system started
            FINISHED | 1 | ROLLED_BACK:failure SUCCEEDED           | 1 of 2 updated, 1 rolled back
            """)
    void heldRollingBackAndFailedAreSaid(String phase, int maxFailed, String runs, String words) {
        SystemDeployment d = new SystemDeployment();
        d.id = 1L;
        d.name = "d";
        d.phase = DeploymentPhase.valueOf(phase);
        d.startedAt = Instant.EPOCH;
        d.maxFailed = maxFailed;
        List<SystemRun.Tally> tally = new ArrayList<>();
        for (String spec : runs.split(" ")) {
            String[] parts = spec.split(":");
            List<String> flags = List.of(parts).subList(1, parts.length);
            tally.add(new SystemRun.Tally(RunState.valueOf(parts[0]), "c01", 1, flags.contains("asked") ? 1 : 0,
                    flags.contains("failure") ? 1 : 0, flags.contains("held") ? 1 : 0));
        }
        DeploymentView view = DeploymentView.of(d, "m", tally, CentreWindows.of(null, Instant.EPOCH));
        assertThat(view.summary()).isEqualTo(words);
        assertThat(view.failedBecause()).isEqualTo(phase.equals("FAILED") ? words.substring(words.indexOf("failed: ") + 8)
                : null);
    }
}
