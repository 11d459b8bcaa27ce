package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

import static io.qawk.orchestrator.deployment.store.ArrayColumns.ROWS_PER_STATEMENT;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.instant;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.micros;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.time;

/**
 * The engine's runs ({@code system_run}) read, locked and written in plain JDBC, as {@link RunDeviceWriter} does their
 * devices: a pass plans thousands of runs, and as entities each cost Hibernate an entity entry, a copy of its state, a
 * dirty check and an update of its own, and locking them cost it a new translation of the {@code in} list for every
 * number of ids. Here the runs are plain objects: {@link #lock} reads and locks them, the planner's changes are made to
 * them, and just before the transaction commits ({@link BeforeCommit}) those whose progress changed are written, a
 * thousand per statement.
 * <p>
 * It is the only writer of {@code system_run} (the entity refuses writes): the API's commands (abort, a manual
 * rollback, a retake) lock and change runs here too, and {@link #writeNow} writes them before the phase is read back.
 * The version is kept as Hibernate keeps it: a run is written only at the version it was read at, and its version goes
 * up by one. As the runs are locked, a run not found at its version means something wrote it without the lock: the
 * transaction fails.
 */
@Singleton
public class SystemRunWriter {

    static final String COLUMNS = "id, deployment_id, system_name, system_type_id, group_name, seq, state,"
            + " current_order, failed_order, rollback_cause, rollback_reason, reason, attempt, started_at, ended_at,"
            + " soak_started_at, soak_ends_at, version,"
            // why its records are behind hawkBit, while they are (run_divergence): a command's refusal reads it
            + " (select dv.words from run_divergence dv where dv.run_id = system_run.id)";

    /** What the engine and the API's commands change of a run (its system, group and place are fixed). */
    static final String UPDATE = "update system_run r set state = v.state, current_order = v.current_order,"
            + " failed_order = v.failed_order, rollback_cause = v.rollback_cause, rollback_reason = v.rollback_reason,"
            + " reason = v.reason, started_at = " + time("started_at") + ", ended_at = " + time("ended_at")
            + ", soak_started_at = " + time("soak_started_at") + ", soak_ends_at = " + time("soak_ends_at")
            + ", attempt = v.attempt, version = r.version + 1"
            + " from unnest(cast(? as int8[]), cast(? as int8[]), cast(? as text[]), cast(? as int4[]),"
            + " cast(? as int4[]), cast(? as text[]), cast(? as text[]), cast(? as text[]), cast(? as int8[]),"
            + " cast(? as int8[]), cast(? as int8[]), cast(? as int8[]), cast(? as int4[]))"
            + " as v(id, version, state, current_order, failed_order, rollback_cause, rollback_reason, reason,"
            + " started_at, ended_at, soak_started_at, soak_ends_at, attempt)"
            + " where r.id = v.id and r.version = v.version";

    /** Runs read for a look only: not locked, never written from here. */
    static final String READ = "select " + COLUMNS + " from system_run where id = any(cast(? as int8[])) order by id";

    /**
     * As Hibernate locks for {@code PESSIMISTIC_WRITE} on Postgres ({@code for no key update}): a run's timeline
     * entries and devices, whose keys refer to it, may still be written by others meanwhile.
     */
    static final String LOCK = READ + " for no key update";

    static final String TO_PLAN = "select " + COLUMNS + " from system_run where deployment_id = ?"
            + " and " + RunState.drivesSql("")
            + " and not exists (select 1 from run_divergence dv where dv.run_id = system_run.id) order by seq";

    /**
     * A deployment's new pending runs and the CREATED entry of each, in one statement per thousand: at 25,000 systems,
     * persisting them as entities was one insert of its own per run (an identity key cannot be batched).
     */
    static final String INSERT_PENDING = "with runs as (insert into system_run (deployment_id, system_name,"
            + " system_type_id, group_name, seq, state, attempt, version)"
            + " select ?, v.system_name, ?, v.group_name, v.seq, " + SqlEnums.literal(RunState.PENDING) + ", 1, 0"
            + " from unnest(cast(? as text[]), cast(? as text[]), cast(? as int4[])) as v(system_name, group_name, seq)"
            + " returning id)"
            + " insert into run_event (id, run_id, at, type, message, data, actor)"
            + " select nextval('run_event_id_seq'), id, ?, ?, ?, cast(? as jsonb), ? from runs";

    @Inject
    TimelineWriter timeline;

    @Inject
    BeforeCommit beforeCommit;

    @Inject
    DataSource dataSource;

    /**
     * These runs locked for this transaction, in id order (the order every replica locks them in), as plain objects;
     * those whose progress has changed by the time the transaction commits are written then.
     */
    public List<SystemRun> lock(List<Long> runIds) {
        if (runIds.isEmpty()) {
            return List.of();
        }
        Runs runs = beforeCommit.batch(Runs.class, Runs::new);
        List<SystemRun> out = select(LOCK,
                s -> s.setArray(1, ArrayColumns.ids(s.getConnection(), runIds)));
        out.forEach(r -> runs.read.put(r, Progress.of(r)));
        return out;
    }

    /**
     * Writes the runs of this transaction whose progress changed now rather than at its commit, for a query that
     * follows in the same transaction (the phase re-derived from the runs' states); they are written again at the
     * commit only if they change again.
     */
    public void writeNow() {
        Runs runs = beforeCommit.existing(Runs.class);
        if (runs == null || runs.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) { // the transaction's own connection
            runs.write(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("the runs could not be written: " + e.getMessage(), e);
        }
    }

    /** A system to take as a pending run: its name, group and place in the deployment's sequence. */
    public record Pending(String system, String group, int seq) {
    }

    /**
     * Stores these systems as pending runs of a deployment, now, in the caller's transaction, each with the entry
     * {@code why} on its timeline; returns how many were stored.
     */
    public int insertPending(long deploymentId, long systemTypeId, List<Pending> systems, Instant at, TimelineEvent.Created why,
                      String actor) {
        if (systems.isEmpty()) {
            return 0;
        }
        int stored = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(INSERT_PENDING)) {
            for (int from = 0; from < systems.size(); from += ROWS_PER_STATEMENT) {
                List<Pending> some = systems.subList(from, Math.min(systems.size(), from + ROWS_PER_STATEMENT));
                insert.setLong(1, deploymentId);
                insert.setLong(2, systemTypeId);
                new ArrayColumns<>(connection, some, insert, 3).add("text", Pending::system)
                        .add("text", Pending::group).add("int4", Pending::seq);
                insert.setTimestamp(6, Timestamp.from(at));
                insert.setString(7, why.kind().name());
                insert.setString(8, TimelineWriter.messageOf(why));
                insert.setString(9, timeline.json(why));
                insert.setString(10, actor);
                stored += insert.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("pending runs could not be stored: " + e.getMessage(), e);
        }
        return stored;
    }

    /** These runs as they are now, in id order, as plain objects: not locked, and not written by this writer. */
    public List<SystemRun> read(List<Long> runIds) {
        if (runIds.isEmpty()) {
            return List.of();
        }
        return select(READ, s -> s.setArray(1, ArrayColumns.ids(s.getConnection(), runIds)));
    }

    /**
     * A deployment's runs a pass may plan (under way, or gone back by hand), in sequence; read only, not locked. A run
     * whose records are behind hawkBit ({@code run_divergence}) is not among them: nothing moves on it.
     */
    List<SystemRun> toPlan(long deploymentId) {
        return select(TO_PLAN, s -> s.setLong(1, deploymentId));
    }

    private interface Parameters {
        void set(PreparedStatement statement) throws SQLException;
    }

    private List<SystemRun> select(String sql, Parameters parameters) {
        List<SystemRun> out = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            parameters.set(select);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("runs could not be read: " + e.getMessage(), e);
        }
        return out;
    }

    private static SystemRun row(ResultSet rs) throws SQLException {
        SystemRun r = new SystemRun();
        r.id = rs.getLong(1);
        r.deploymentId = rs.getLong(2);
        r.system = rs.getString(3);
        r.systemTypeId = rs.getLong(4);
        r.group = rs.getString(5);
        r.seq = rs.getInt(6);
        r.state = RunState.valueOf(rs.getString(7));
        r.currentOrder = rs.getObject(8, Integer.class);
        r.failedOrder = rs.getObject(9, Integer.class);
        String cause = rs.getString(10);
        r.rollbackCause = cause == null ? null : RollbackCause.valueOf(cause);
        r.rollbackReason = rs.getString(11);
        r.reason = rs.getString(12);
        r.attempt = rs.getInt(13);
        r.startedAt = instant(rs, 14);
        r.endedAt = instant(rs, 15);
        r.soakStartedAt = instant(rs, 16);
        r.soakEndsAt = instant(rs, 17);
        r.version = rs.getLong(18);
        r.divergence = rs.getString(19);
        return r;
    }

    /** What the engine may change of a run, as it was read: a run whose progress is still this is not written. */
    private record Progress(RunState state, Integer currentOrder, Integer failedOrder, RollbackCause rollbackCause,
                            String rollbackReason, String reason, Instant startedAt, Instant endedAt,
                            Instant soakStartedAt, Instant soakEndsAt, int attempt) {

        static Progress of(SystemRun r) {
            return new Progress(r.state, r.currentOrder, r.failedOrder, r.rollbackCause, r.rollbackReason, r.reason,
                    r.startedAt, r.endedAt, r.soakStartedAt, r.soakEndsAt, r.attempt);
        }
    }

    private static final class Runs implements BeforeCommit.Batch {

        // by identity: a run is one object for its transaction, and its fields change until the commit
        public final Map<SystemRun, Progress> read = new IdentityHashMap<>();

        @Override
        public boolean isEmpty() {
            return read.isEmpty();
        }

        @Override
        public String what() {
            return "the runs";
        }

        @Override
        public void clear() {
            read.clear();
        }

        @Override
        public void write(Connection connection) throws SQLException {
            List<SystemRun> changed = read.entrySet().stream()
                    .filter(e -> !Objects.equals(e.getValue(), Progress.of(e.getKey())))
                    .map(Map.Entry::getKey).toList();
            if (changed.isEmpty()) {
                return;
            }
            try (PreparedStatement update = connection.prepareStatement(UPDATE)) {
                for (int from = 0; from < changed.size(); from += ROWS_PER_STATEMENT) {
                    List<SystemRun> some = changed.subList(from, Math.min(changed.size(), from + ROWS_PER_STATEMENT));
                    ArrayColumns<SystemRun> c = new ArrayColumns<>(connection, some, update);
                    c.add("int8", r -> r.id).add("int8", r -> r.version).add("text", r -> r.state.name())
                            .add("int4", r -> r.currentOrder).add("int4", r -> r.failedOrder)
                            .add("text", r -> r.rollbackCause == null ? null : r.rollbackCause.name())
                            .add("text", r -> r.rollbackReason).add("text", r -> r.reason)
                            .add("int8", r -> micros(r.startedAt)).add("int8", r -> micros(r.endedAt))
                            .add("int8", r -> micros(r.soakStartedAt)).add("int8", r -> micros(r.soakEndsAt))
                            .add("int4", r -> r.attempt);
                    int updated = update.executeUpdate();
                    if (updated != some.size()) {
                        throw new SQLException(some.size() + " runs to update, " + updated + " found at the version"
                                + " they were read at: another transaction changed some without their lock");
                    }
                }
            }
            for (SystemRun r : changed) { // as they are now: written again only if they change again
                r.version++;
                read.put(r, Progress.of(r));
            }
        }
    }
}
