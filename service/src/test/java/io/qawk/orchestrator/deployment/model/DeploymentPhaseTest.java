package io.qawk.orchestrator.deployment.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DeploymentPhase#derive}: the phase from the flags (started, paused, aborted), the failure budget and how the
 * runs stand. Runs are written {@code STATE[:cause][+again]} separated by spaces: {@code ROLLED_BACK:FAILURE},
 * {@code SUCCEEDED:MANUAL} (a rollback by hand asked for), {@code PENDING+again} (taken again by a person).
 */
class DeploymentPhaseTest {

    @ParameterizedTest(name = "started={0} paused={1} aborted={2} maxFailed={3} runs=[{4}] -> {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # not started: a draft, or aborted before it began
            false | false | false | 0 |                                         | DRAFT
            false | false | true  | 0 |                                         | ABORTED
            false | true  | false | 0 |                                         | DRAFT
            # started, nothing left: finished (also with no systems at all)
            true  | false | false | 0 |                                         | FINISHED
            true  | false | false | 0 | SUCCEEDED SUCCEEDED                     | FINISHED
            true  | false | false | 0 | SUCCEEDED SKIPPED GIVEN_UP              | FINISHED
            # something pending or under way: running
            true  | false | false | 0 | SUCCEEDED PENDING                       | RUNNING
            true  | false | false | 0 | RUNNING                                 | RUNNING
            true  | false | false | 0 | ROLLING_BACK:FAILURE                    | RUNNING
            true  | false | false | 0 | SUCCEEDED:MANUAL                        | RUNNING
            # a system soaking after its last order is not updated yet: running (and its release not complete)
            true  | false | false | 0 | SUCCEEDED VERIFYING                     | RUNNING
            true  | false | true  | 0 | VERIFYING SKIPPED                       | ABORTING
            # a rollback by hand of a run still RUNNING keeps it running, once back it is a finished system
            true  | false | false | 0 | ROLLED_BACK:MANUAL SUCCEEDED            | FINISHED
            # the failure budget: more failed than maxFailed, none under way
            true  | false | false | 0 | ROLLED_BACK:FAILURE PENDING             | FAILED
            true  | false | false | 0 | ROLLBACK_FAILED:FAILURE SUCCEEDED       | FAILED
            true  | false | false | 1 | ROLLED_BACK:FAILURE PENDING             | RUNNING
            true  | false | false | 1 | ROLLED_BACK:FAILURE SUCCEEDED           | FINISHED
            true  | false | false | 1 | ROLLED_BACK:FAILURE ROLLED_BACK:FAILURE | FAILED
            # a failure under way is still under way: running, whatever the budget
            true  | false | false | 0 | ROLLED_BACK:FAILURE ROLLING_BACK:FAILURE | RUNNING
            true  | false | false | 0 | ROLLED_BACK:FAILURE RUNNING             | RUNNING
            # over the budget, a system a person took again keeps it running
            true  | false | false | 0 | ROLLED_BACK:FAILURE PENDING+again       | RUNNING
            true  | false | false | 0 | ROLLED_BACK:FAILURE PENDING+again PENDING | RUNNING
            # a rollback by hand never counts against the budget
            true  | false | false | 0 | ROLLED_BACK:MANUAL PENDING              | RUNNING
            # paused: paused, whether runs are under way or not, unless aborted
            true  | true  | false | 0 | RUNNING PENDING                         | PAUSED
            true  | true  | false | 0 | SUCCEEDED                               | PAUSED
            true  | true  | false | 0 | ROLLED_BACK:FAILURE PENDING             | PAUSED
            # aborted: aborting while runs are under way (or a rollback by hand is pending), then aborted
            true  | false | true  | 0 | RUNNING SKIPPED                         | ABORTING
            true  | false | true  | 0 | ROLLING_BACK:FAILURE                    | ABORTING
            true  | false | true  | 0 | SUCCEEDED:MANUAL                        | ABORTING
            true  | false | true  | 0 | SUCCEEDED SKIPPED                       | ABORTED
            true  | false | true  | 0 | ROLLED_BACK:FAILURE                     | ABORTED
            true  | true  | true  | 0 | RUNNING                                 | ABORTING
            true  | true  | true  | 0 | SKIPPED                                 | ABORTED
            """)
    void thePhaseFollowsFromFlagsAndRuns(boolean started, boolean paused, boolean aborted, int maxFailed, String runs,
                                         DeploymentPhase expected) {
        assertThat(DeploymentPhase.derive(started, paused, aborted, maxFailed, runs(runs))).isEqualTo(expected);
    }

    static List<DeploymentPhase.RunSummary> runs(String specs) {
        List<DeploymentPhase.RunSummary> out = new ArrayList<>();
        if (specs == null || specs.isBlank()) {
            return out;
        }
        String[] each = specs.trim().split("\\s+");
        for (int i = 0; i < each.length; i++) {
            String spec = each[i];
            boolean again = spec.endsWith("+again");
            spec = spec.replace("+again", "");
            String[] parts = spec.split(":");
            RollbackCause cause = parts.length > 1 ? RollbackCause.valueOf(parts[1]) : null;
            out.add(new DeploymentPhase.RunSummary(i + 1, RunState.valueOf(parts[0]), "c01", i, cause, again));
        }
        return out;
    }
}
