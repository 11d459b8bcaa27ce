package io.qawk.orchestrator.deployment.store;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;

/**
 * Runs the engine locks and writes in plain JDBC: those whose progress changed are written once, as they are when
 * their transaction commits, with their version raised as Hibernate raises it; those unchanged are not written; a
 * transaction that rolls back writes none; a run found at another version than it was read at fails the transaction;
 * runs written now are seen by the transaction's next query; and a run changed through Hibernate fails its transaction:
 * the writer is the one way runs are written. Rows are read back through Hibernate. The deployment is a finished one, which
 * the engine leaves alone.
 */
@QuarkusTest
class SystemRunWriterTest {

    static final Instant AT = Instant.parse("2026-12-03T13:10:11.123456Z");

    @Inject
    SystemRunWriter writer;

    @Inject
    RunRepository repository;

    @Inject
    EntityManager em;

    FinishedDeployment deployment;
    int nextSeq = 1;

    @BeforeEach
    void aFinishedDeployment() {
        deployment = FinishedDeployment.create(em, "run-writer");
    }

    @AfterEach
    void removeIt() {
        deployment.remove(em);
    }

    /**
     * {@code count} new runs of the deployment in {@code state}, systems {@code running-00000}…, each next in the
     * sequence after the runs made before; their ids in order.
     */
    private List<Long> runs(int count, String state, String rollbackCause) {
        int from = nextSeq;
        nextSeq += count;
        return QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery("insert into system_run"
                        + " (deployment_id, system_name, seq, state, system_type_id, rollback_cause) select :d,"
                        + " :prefix || lpad(i::text, 5, '0'), :from + i, :state, :t, :cause"
                        + " from generate_series(0, :n - 1) i returning id", Long.class)
                .setParameter("d", deployment.deploymentId()).setParameter("prefix", state.toLowerCase() + "-")
                .setParameter("from", from).setParameter("state", state).setParameter("t", deployment.typeId())
                .setParameter("cause", rollbackCause).setParameter("n", count).getResultList().stream()
                .map(Long.class::cast).sorted().toList());
    }

    private SystemRun stored(long id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            SystemRun r = SystemRun.findById(id);
            em.detach(r);
            return r;
        });
    }

    @Test
    void changedRunsAreWrittenAsTheyAreAtTheCommitWithTheirVersionRaisedAndUnchangedOnesAreNot() {
        List<Long> ids = runs(ArrayColumns.ROWS_PER_STATEMENT + 2, "RUNNING", null); // more than one statement
        long untouched = ids.get(1);
        QuarkusTransaction.requiringNew().run(() -> {
            List<SystemRun> locked = writer.lock(ids);
            assertThat(locked).extracting(r -> r.id).as("in id order").containsExactlyElementsOf(ids);
            for (SystemRun r : locked) {
                if (r.id != untouched) {
                    r.currentOrder = 2;
                }
            }
            SystemRun first = locked.get(0);
            first.moveThrough(List.of(RunState.ROLLING_BACK));
            first.failedOrder = 2;
            first.rollbackCause = RollbackCause.FAILURE;
            first.rollbackReason = "terminal t-1 failed ✗";
            first.reason = "going back";
            first.startedAt = AT;
            first.soakStartedAt = AT.plusMillis(1);
            first.soakEndsAt = AT.plusSeconds(60);
            // changed after it was named, before the commit: written as it is then
            first.endedAt = AT.plusSeconds(61);
        });
        SystemRun first = stored(ids.get(0));
        assertThat(first.state).isEqualTo(RunState.ROLLING_BACK);
        assertThat(first.currentOrder).isEqualTo(2);
        assertThat(first.failedOrder).isEqualTo(2);
        assertThat(first.rollbackCause).isEqualTo(RollbackCause.FAILURE);
        assertThat(first.rollbackReason).isEqualTo("terminal t-1 failed ✗");
        assertThat(first.reason).isEqualTo("going back");
        assertThat(first.startedAt).isEqualTo(AT);
        assertThat(first.soakStartedAt).isEqualTo(AT.plusMillis(1));
        assertThat(first.soakEndsAt).isEqualTo(AT.plusSeconds(60));
        assertThat(first.endedAt).isEqualTo(AT.plusSeconds(61));
        assertThat(first.version).as("raised once, as Hibernate raises it").isEqualTo(1);
        assertThat(first.system).as("what the engine does not change stays").isEqualTo("running-00000");
        SystemRun last = stored(ids.get(ids.size() - 1));
        assertThat(last.currentOrder).as("in the second statement").isEqualTo(2);
        assertThat(last.version).isEqualTo(1);
        assertThat(last.endedAt).as("a time not set stays null").isNull();
        SystemRun same = stored(untouched);
        assertThat(same.currentOrder).isNull();
        assertThat(same.version).as("a run whose progress did not change is not written").isZero();
    }

    @Test
    void runsOfATransactionThatRollsBackAreNeverWritten() {
        long id = runs(1, "RUNNING", null).get(0);
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            writer.lock(List.of(id)).get(0).currentOrder = 3;
            throw new IllegalStateException("undone");
        })).hasMessage("undone");
        SystemRun r = stored(id);
        assertThat(r.currentOrder).isNull();
        assertThat(r.version).isZero();
    }

    @Test
    void aRunFoundAtAnotherVersionThanItWasReadAtFailsTheTransaction() {
        long id = runs(1, "RUNNING", null).get(0);
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            SystemRun r = writer.lock(List.of(id)).get(0);
            em.createNativeQuery("update system_run set version = version + 1 where id = " + id).executeUpdate();
            r.currentOrder = 3;
        })).hasStackTraceContaining("1 runs to update, 0 found at the version they were read at");
        SystemRun r = stored(id);
        assertThat(r.currentOrder).as("nothing of it is written").isNull();
        assertThat(r.version).isZero();
    }

    @Test
    void aRunChangedThroughHibernateFailsItsTransactionAndNothingOfItIsWritten() {
        long id = runs(1, "RUNNING", null).get(0);
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            SystemRun entity = SystemRun.findById(id); // read through Hibernate, as the API reads
            entity.reason = "paused by hand";
        })).hasStackTraceContaining("system_run is written by SystemRunWriter only");
        SystemRun r = stored(id);
        assertThat(r.reason).isNull();
        assertThat(r.version).isZero();
    }

    @Test
    void runsWrittenNowAreSeenByTheTransactionsNextQueryAndWrittenAgainOnlyIfTheyChangeAgain() {
        List<Long> ids = runs(3, "PENDING", null);
        QuarkusTransaction.requiringNew().run(() -> {
            List<SystemRun> locked = writer.lock(ids);
            locked.get(0).moveTo(RunState.SKIPPED);
            locked.get(1).moveTo(RunState.SKIPPED);
            locked.get(1).attempt = 2;
            writer.writeNow();
            assertThat(repository.summaries(deployment.deploymentId()))
                    .as("the phase is derived from these in the same transaction")
                    .filteredOn(s -> s.state() == RunState.SKIPPED).extracting(s -> s.id())
                    .containsExactly(ids.get(0), ids.get(1));
            locked.get(1).reason = "changed again after it was written";
        });
        assertThat(stored(ids.get(0)).version).as("written once, not again at the commit").isEqualTo(1);
        SystemRun again = stored(ids.get(1));
        assertThat(again.version).as("written now and again at the commit").isEqualTo(2);
        assertThat(again.attempt).isEqualTo(2);
        assertThat(again.reason).isEqualTo("changed again after it was written");
        assertThat(stored(ids.get(2)).version).as("unchanged, never written").isZero();
    }

    @Test
    void theRunsToPlanAreThoseUnderWayOrGoneBackByHandInSequence() {
        List<Long> running = runs(1, "RUNNING", null);
        List<Long> verifying = runs(1, "VERIFYING", null);
        List<Long> rollingBack = runs(1, "ROLLING_BACK", null);
        List<Long> manual = runs(1, "SUCCEEDED", "MANUAL");
        runs(1, "PENDING", null);
        runs(1, "ROLLED_BACK", "FAILURE");
        List<SystemRun> toPlan = QuarkusTransaction.requiringNew().call(() -> writer.toPlan(deployment.deploymentId()));
        assertThat(toPlan).extracting(r -> r.id).containsExactlyInAnyOrder(running.get(0), verifying.get(0),
                rollingBack.get(0), manual.get(0));
        assertThat(toPlan).extracting(r -> r.seq).as("in sequence").isSorted();
        assertThat(toPlan).filteredOn(r -> r.id.equals(manual.get(0))).singleElement()
                .satisfies(r -> assertThat(r.rollbackCause).isEqualTo(RollbackCause.MANUAL));
    }

    @Test
    void pendingRunsAreStoredInTheirOrderEachWithItsCreatedEntryAndNoneWhenTheTransactionRollsBack() {
        int n = ArrayColumns.ROWS_PER_STATEMENT + 2; // more than one statement
        List<SystemRunWriter.Pending> pending = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pending.add(new SystemRunWriter.Pending("pending-" + i, i % 2 == 0 ? "centre-a" : null, i));
        }
        TimelineEvent.Created why = new TimelineEvent.Created("in scope of deployment 'run-writer'");
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            writer.insertPending(deployment.deploymentId(), deployment.typeId(), pending, AT, why, "alice");
            throw new IllegalStateException("the start failed after its runs were stored");
        })).hasMessageContaining("the start failed");
        assertThat(QuarkusTransaction.requiringNew().call(() -> SystemRun.ofDeployment(deployment.deploymentId())))
                .as("rolled back with its transaction").isEmpty();

        int stored = QuarkusTransaction.requiringNew().call(() -> writer.insertPending(deployment.deploymentId(),
                deployment.typeId(), pending, AT, why, "alice"));
        assertThat(stored).as("timeline entries written").isEqualTo(n);
        List<SystemRun> runs = QuarkusTransaction.requiringNew().call(() -> SystemRun.ofDeployment(deployment.deploymentId()));
        assertThat(runs).extracting(r -> r.system).containsExactlyElementsOf(pending.stream().map(p -> p.system()).toList());
        assertThat(runs).allSatisfy(r -> {
            assertThat(r.state).isEqualTo(RunState.PENDING);
            assertThat(r.attempt).isEqualTo(1);
            assertThat(r.version).isZero();
            assertThat(r.systemTypeId).isEqualTo(deployment.typeId());
            assertThat(r.group).isEqualTo(r.seq % 2 == 0 ? "centre-a" : null);
            assertThat(r.system).isEqualTo("pending-" + r.seq);
        });
        List<Object[]> events = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery("select e.run_id,"
                        + " e.type, e.message, e.actor, e.at, e.data->>'why' from run_event e join system_run r on r.id = e.run_id"
                        + " where r.deployment_id = :d order by e.run_id", Object[].class)
                .setParameter("d", deployment.deploymentId()).getResultList());
        assertThat(events).extracting(e -> ((Number) e[0]).longValue()).as("one entry per run")
                .containsExactlyElementsOf(runs.stream().map(r -> r.id).sorted().toList());
        assertThat(events).allSatisfy(e -> {
            assertThat(e[1]).isEqualTo("CREATED");
            assertThat(e[2]).isEqualTo("in scope of deployment 'run-writer'");
            assertThat(e[3]).isEqualTo("alice");
            assertThat(e[5]).isEqualTo("in scope of deployment 'run-writer'");
        });
        assertThat(events.get(0)[4]).isEqualTo(AT);
    }
}
