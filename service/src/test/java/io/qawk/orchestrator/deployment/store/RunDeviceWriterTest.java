package io.qawk.orchestrator.deployment.store;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunDevice;

/**
 * Run devices the engine writes in plain JDBC: new ones and changed ones are written once, as they are when their
 * transaction commits (not as they were when named), every column as Hibernate reads it back; a transaction that rolls
 * back writes none; rows that cannot be written fail the transaction; and a transaction that has rows waiting may not
 * read run devices (it would not see them). Rows are read back through Hibernate, the way the rest of the service
 * reads them. The run is a finished deployment's, which the engine leaves alone.
 */
@QuarkusTest
class RunDeviceWriterTest {

    static final long NO_SUCH_RUN = 987_654_322L;
    static final Instant AT = Instant.parse("2026-12-03T09:10:11.123456Z");

    @Inject
    RunDeviceWriter writer;

    @Inject
    EntityManager em;

    FinishedDeployment deployment;
    long runId;

    @BeforeEach
    void aFinishedRun() {
        deployment = FinishedDeployment.create(em, "writer");
        runId = QuarkusTransaction.requiringNew().call(() -> FinishedDeployment.id(em,
                "insert into system_run (deployment_id, system_name, seq, state, system_type_id) values ("
                        + deployment.deploymentId() + ", :n, 1, 'SUCCEEDED', " + deployment.typeId() + ") returning id",
                "run-1"));
    }

    @AfterEach
    void removeIt() {
        deployment.remove(em);
    }

    private static RunDevice device(long runId, String controllerId, int order) {
        RunDevice d = new RunDevice();
        d.runId = runId;
        d.controllerId = controllerId;
        d.componentType = "terminal";
        d.order = order;
        d.toSetId = 7;
        d.toSet = "terminal:2.0";
        return d;
    }

    private List<RunDevice> stored() {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<RunDevice> out = RunDevice.list("runId in ?1 order by controllerId", List.of(runId, NO_SUCH_RUN));
            out.forEach(em::detach);
            return out;
        });
    }

    @Test
    void newDevicesAreWrittenAsTheyAreAtTheCommitAndChangesOfReadOnesToo() {
        List<RunDevice> photo = new ArrayList<>();
        for (int i = 0; i < ArrayColumns.ROWS_PER_STATEMENT + 2; i++) { // more than one statement
            photo.add(device(runId, String.format("t-%05d", i), 1 + i % 2));
        }
        RunDevice first = photo.get(0);
        first.fromSetId = 3L;
        first.fromSet = "terminal:1.0";
        first.verifyQuery = "attribute.version==2.0";
        first.healthQuery = "attribute.health==ok";
        QuarkusTransaction.requiringNew().run(() -> {
            writer.inserted(photo);
            // what the planner does after the photograph, in the same transaction: written too, in the one insert
            first.moveTo(DeviceState.ASSIGNING);
            first.intentAt = AT;
            first.detail = "sent ✓";
            photo.get(2).reportedAt = AT.minusSeconds(5);
        });
        List<RunDevice> rows = stored();
        assertThat(rows).hasSize(photo.size());
        RunDevice row = rows.get(0);
        assertThat(row.controllerId).isEqualTo("t-00000");
        assertThat(row.state).isEqualTo(DeviceState.ASSIGNING);
        assertThat(row.intentAt).isEqualTo(AT);
        assertThat(row.detail).isEqualTo("sent ✓");
        assertThat(row.fromSetId).isEqualTo(3L);
        assertThat(row.fromSet).isEqualTo("terminal:1.0");
        assertThat(row.toSetId).isEqualTo(7L);
        assertThat(row.verifyQuery).isEqualTo("attribute.version==2.0");
        assertThat(row.healthQuery).isEqualTo("attribute.health==ok");
        assertThat(rows.get(1).fromSetId).isNull();
        assertThat(rows.get(1).intentAt).as("a time not set stays null").isNull();
        assertThat(rows.get(1).state).isEqualTo(DeviceState.WAITING);
        assertThat(rows.get(1).order).isEqualTo(2);
        assertThat(rows.get(2).reportedAt).isEqualTo(AT.minusSeconds(5));
        assertThat(rows.get(1).reportedAt).isNull();

        QuarkusTransaction.requiringNew().run(() -> {
            Map<Long, List<RunDevice>> read = writer.read(List.of(runId));
            assertThat(read.get(runId)).hasSize(photo.size());
            assertThat(read.get(runId).get(0).order).as("in order, then controller id").isEqualTo(1);
            RunDevice d = read.get(runId).stream().filter(x -> x.controllerId.equals("t-00000")).findFirst().orElseThrow();
            assertThat(d.intentAt).isEqualTo(AT);
            writer.changed(d);
            d.moveTo(DeviceState.ASSIGNED);
            d.actionId = 41L;
            d.assignedAt = AT.plusSeconds(1);
            d.unobservedSeconds = 12;
            d.failure = "none";
            d.failed = true;
            d.verifyingSince = AT.plus(2, ChronoUnit.MILLIS);
            d.finishedAt = AT.plusSeconds(3);
            d.reportedAt = AT.plus(2500, ChronoUnit.MILLIS);
            RunDevice other = read.get(runId).stream().filter(x -> x.controllerId.equals("t-00001")).findFirst()
                    .orElseThrow();
            other.detail = "changed but not named: not written";
        });
        rows = stored();
        row = rows.get(0);
        assertThat(row.state).isEqualTo(DeviceState.ASSIGNED);
        assertThat(row.actionId).isEqualTo(41L);
        assertThat(row.assignedAt).isEqualTo(AT.plusSeconds(1));
        assertThat(row.unobservedSeconds).isEqualTo(12);
        assertThat(row.failure).isEqualTo("none");
        assertThat(row.failed).isTrue();
        assertThat(row.verifyingSince).isEqualTo(AT.plus(2, ChronoUnit.MILLIS));
        assertThat(row.finishedAt).isEqualTo(AT.plusSeconds(3));
        assertThat(row.reportedAt).isEqualTo(AT.plus(2500, ChronoUnit.MILLIS));
        assertThat(row.detail).as("the columns not changed keep their values").isEqualTo("sent ✓");
        assertThat(rows.get(1).detail).isNull();
    }

    @Test
    void aDeviceChangedThroughHibernateFailsItsTransactionAndARunsDevicesAreDeletedOnlyThroughTheWriter() {
        QuarkusTransaction.requiringNew().run(() -> writer.inserted(List.of(device(runId, "d-1", 1), device(runId, "d-2", 1))));
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            RunDevice entity = RunDevice.findById(new RunDevice.Key(runId, "d-1"));
            entity.detail = "changed through Hibernate";
        })).hasStackTraceContaining("run_device is written by RunDeviceWriter only");
        assertThat(stored()).extracting(d -> d.detail).containsOnlyNulls();
        QuarkusTransaction.requiringNew().run(() -> writer.deleteOf(runId));
        assertThat(stored()).isEmpty();
    }

    @Test
    void devicesOfATransactionThatRollsBackAreNeverWritten() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            writer.inserted(List.of(device(runId, "t-1", 1)));
            throw new IllegalStateException("undone");
        })).hasMessage("undone");
        assertThat(stored()).isEmpty();
    }

    @Test
    void devicesThatCannotBeWrittenFailTheirTransaction() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() ->
                writer.inserted(List.of(device(runId, "t-1", 1), device(NO_SUCH_RUN, "t-2", 1)))))
                .hasStackTraceContaining("Could not commit transaction")
                .hasStackTraceContaining("the runs' devices could not be written");
        assertThat(stored()).as("neither the one that could be written").isEmpty();
    }

    @Test
    void aChangedDeviceThatIsGoneFailsTheTransaction() {
        RunDevice gone = device(runId, "t-gone", 1);
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> writer.changed(gone)))
                .hasStackTraceContaining("1 run devices to update, 0 found");
    }

    @Test
    void aTransactionWithDevicesWaitingMayNotReadDevices() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            writer.inserted(List.of(device(runId, "t-1", 1)));
            writer.read(List.of(runId));
        })).hasMessageContaining("would not see them");
        assertThat(stored()).isEmpty();
    }

    @Test
    void devicesHawkbitTookAreMarkedAssignedAtOnceOnlyWhileInFlight() {
        RunDevice intent = device(runId, "t-intent", 1);
        intent.state = DeviceState.ASSIGNING;
        RunDevice back = device(runId, "t-back", 1);
        back.state = DeviceState.ROLLBACK_ASSIGNING;
        RunDevice again = device(runId, "t-again", 1);
        again.state = DeviceState.ASSIGNED;
        again.actionId = 5L;
        RunDevice waiting = device(runId, "t-waiting", 2);
        QuarkusTransaction.requiringNew().run(() -> writer.inserted(List.of(intent, back, again, waiting)));
        List<RunDeviceWriter.Marked> marked = QuarkusTransaction.requiringNew().call(() -> writer.markAssigned(List.of(
                new RunDeviceWriter.Taken(runId, "t-intent", 11L, false),
                new RunDeviceWriter.Taken(runId, "t-back", 12L, false),
                new RunDeviceWriter.Taken(runId, "t-again", 13L, true),
                new RunDeviceWriter.Taken(runId, "t-waiting", 14L, false),
                new RunDeviceWriter.Taken(NO_SUCH_RUN, "t-intent", 15L, false)), AT));
        assertThat(marked).containsExactlyInAnyOrder(
                new RunDeviceWriter.Marked(runId, "t-intent", DeviceState.ASSIGNING, DeviceState.ASSIGNED),
                new RunDeviceWriter.Marked(runId, "t-back", DeviceState.ROLLBACK_ASSIGNING, DeviceState.ROLLBACK_ASSIGNED),
                new RunDeviceWriter.Marked(runId, "t-again", DeviceState.ASSIGNED, DeviceState.ASSIGNED));
        Map<String, RunDevice> rows = new HashMap<>();
        stored().forEach(d -> rows.put(d.controllerId, d));
        assertThat(rows.get("t-intent").state).isEqualTo(DeviceState.ASSIGNED);
        assertThat(rows.get("t-intent").actionId).isEqualTo(11L);
        assertThat(rows.get("t-intent").assignedAt).isEqualTo(AT);
        assertThat(rows.get("t-intent").detail).isNull();
        assertThat(rows.get("t-back").state).isEqualTo(DeviceState.ROLLBACK_ASSIGNED);
        assertThat(rows.get("t-back").actionId).isEqualTo(12L);
        assertThat(rows.get("t-again").actionId).as("an assignment taken again: hawkBit's latest action").isEqualTo(13L);
        assertThat(rows.get("t-again").detail).isEqualTo(RunDeviceWriter.DROPPED);
        assertThat(rows.get("t-waiting").state).as("not in flight: left alone").isEqualTo(DeviceState.WAITING);
        assertThat(rows.get("t-waiting").actionId).isNull();
        assertThat(rows.get("t-waiting").assignedAt).isNull();
    }

    @Test
    void aTransactionWithDevicesWaitingMayNotMarkDevicesAssigned() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> {
            writer.inserted(List.of(device(runId, "t-1", 1)));
            writer.markAssigned(List.of(new RunDeviceWriter.Taken(runId, "t-1", 1L, false)), AT);
        })).hasMessageContaining("would not see them");
        assertThat(stored()).isEmpty();
    }
}
