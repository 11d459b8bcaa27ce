package io.qawk.orchestrator.deployment.store;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.TimelineEvent;

/**
 * Timeline entries are written with their transaction, in one batch just before it commits: a transaction that rolls
 * back writes none, and one that cannot write them does not commit. A run id no run has makes the batch fail on the
 * table's foreign key, which shows when the writing happens.
 */
@QuarkusTest
class TimelineWriterTest {

    static final long NO_SUCH_RUN = 987_654_321L;

    @Inject
    TimelineWriter timeline;

    private static long stored() {
        return QuarkusTransaction.requiringNew().call(() -> RunEvent.count("runId", NO_SUCH_RUN));
    }

    @Test
    void entriesOfATransactionThatRollsBackAreNeverWritten() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            // not written yet: the batch waits for the commit, so the missing run is not noticed here
            timeline.record(NO_SUCH_RUN, Instant.now(), new TimelineEvent.Paused(), "test");
            throw new IllegalStateException("undone");
        })).hasMessage("undone");
        assertThat(stored()).isZero();
    }

    @Test
    void aBatchThatCannotBeWrittenFailsItsTransaction() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            for (int i = 0; i < TimelineWriter.BATCH + 3; i++) { // more than one JDBC batch
                timeline.record(NO_SUCH_RUN, Instant.now(), new TimelineEvent.Resumed(), null);
            }
        })).hasStackTraceContaining("Could not commit transaction");
        assertThat(stored()).isZero();
    }
}
