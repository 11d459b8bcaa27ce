package io.qawk.orchestrator.deployment.api;

import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.window.CentreWindows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run as the API shows it says the state a command caused (issue 56): a run whose rollback was asked for (by hand,
 * or decided after a failure while its devices still finish) reads ROLLING_BACK from the command's answer on, not the
 * state it had before the engine's next pass moves it.
 */
class RunViewTest {

    @ParameterizedTest(name = "{0} with rollback cause {1} reads {2}")
    @CsvSource(delimiter = '|', textBlock = """
            SUCCEEDED    | MANUAL  | ROLLING_BACK
            RUNNING      | MANUAL  | ROLLING_BACK
            VERIFYING    | MANUAL  | ROLLING_BACK
            RUNNING      | FAILURE | ROLLING_BACK
            ROLLING_BACK | MANUAL  | ROLLING_BACK
            ROLLED_BACK  | MANUAL  | ROLLED_BACK
            ROLLED_BACK  | FAILURE | ROLLED_BACK
            SUCCEEDED    |         | SUCCEEDED
            RUNNING      |         | RUNNING
            PENDING      |         | PENDING
            """)
    void aRunWhoseRollbackIsAskedReadsRollingBack(RunState stored, RollbackCause cause, RunState shown) {
        SystemRun r = new SystemRun();
        r.id = 7L;
        r.deploymentId = 1L;
        r.system = "device-05";
        r.state = stored;
        r.rollbackCause = cause;
        Instant now = Instant.EPOCH;
        assertThat(RunView.of(r, List.of(), CentreWindows.of(null, now), now).state()).isEqualTo(shown);
    }
}
