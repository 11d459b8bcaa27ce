package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunDevice;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

import static io.qawk.orchestrator.deployment.store.ArrayColumns.ROWS_PER_STATEMENT;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.instant;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.micros;
import static io.qawk.orchestrator.deployment.store.ArrayColumns.time;

/**
 * The engine's run devices ({@code run_device}) read and written in plain JDBC: a pass plans thousands of systems, and
 * as entities their devices cost Hibernate an entity entry, a copy of their state and a dirty check each, then one
 * statement per changed row. Here the devices are plain objects: {@link #read} reads them, the planner's changes are
 * made to them, and {@link #inserted}/{@link #changed} name those to write. They are written just before the
 * transaction commits ({@link BeforeCommit}), each once and as it is then, a thousand rows per statement.
 * <p>
 * Three writes are made at once, not at the commit, each in a transaction that has no rows waiting:
 * {@link #markAssigned} (the devices hawkBit took), {@link #extendTimeouts} (time nobody observed) and {@link #deleteOf}
 * (a run taken again). Nothing reads or marks run devices in the transaction that writes them here ({@link #read} and
 * {@link #markAssigned} refuse while rows wait), and these devices are never entities of the session.
 * <p>
 * One class: it is the only writer of {@code run_device} (the entity refuses writes), so every statement that changes
 * the table is here.
 */
@Singleton
public class RunDeviceWriter {

    static final String COLUMNS = "run_id, controller_id, component_type, update_order, from_set_id, from_set, to_set_id,"
            + " to_set, state, failed, intent_at, assigned_at, action_id, finished_at, detail, unobserved_seconds, failure,"
            + " verify_query, health_query, verifying_since, reported_at";

    static final String INSERT = "insert into run_device (" + COLUMNS + ") select v.run_id, v.controller_id,"
            + " v.component_type, v.update_order, v.from_set_id, v.from_set, v.to_set_id, v.to_set, v.state, v.failed, "
            + time("intent_at") + ", " + time("assigned_at") + ", v.action_id, " + time("finished_at") + ", v.detail,"
            + " v.unobserved_seconds, v.failure, v.verify_query, v.health_query, " + time("verifying_since") + ", "
            + time("reported_at") + " from unnest(cast(? as int8[]), cast(? as text[]), cast(? as text[]), cast(? as int4[]),"
            + " cast(? as int8[]), cast(? as text[]), cast(? as int8[]), cast(? as text[]), cast(? as text[]),"
            + " cast(? as bool[]), cast(? as int8[]), cast(? as int8[]), cast(? as int8[]), cast(? as int8[]),"
            + " cast(? as text[]), cast(? as int8[]), cast(? as text[]), cast(? as text[]), cast(? as text[]),"
            + " cast(? as int8[]), cast(? as int8[])) as v(" + COLUMNS + ")";

    /** What the planner changes (the rest is the photograph, written once). */
    static final String UPDATE = "update run_device d set state = v.state, failed = v.failed, intent_at = "
            + time("intent_at") + ", assigned_at = " + time("assigned_at") + ", action_id = v.action_id, finished_at = "
            + time("finished_at") + ", detail = v.detail, unobserved_seconds = v.unobserved_seconds,"
            + " failure = v.failure, verifying_since = " + time("verifying_since") + ", reported_at = "
            + time("reported_at")
            + " from unnest(cast(? as int8[]), cast(? as text[]), cast(? as text[]), cast(? as bool[]),"
            + " cast(? as int8[]), cast(? as int8[]), cast(? as int8[]), cast(? as int8[]),"
            + " cast(? as text[]), cast(? as int8[]), cast(? as text[]), cast(? as int8[]), cast(? as int8[]))"
            + " as v(run_id, controller_id, state, failed, intent_at, assigned_at, action_id, finished_at, detail,"
            + " unobserved_seconds, failure, verifying_since, reported_at)"
            + " where d.run_id = v.run_id and d.controller_id = v.controller_id";

    static final String SELECT = "select " + COLUMNS + " from run_device where run_id = any(cast(? as int8[]))"
            + " order by run_id, update_order, controller_id";

    /** What hawkBit no longer knowing a device's target (an incomplete answer) leaves in its detail. */
    static final String DROPPED = "hawkBit no longer knows this target";

    /**
     * Devices hawkBit took an assignment for, in one of two states ({@code ?} after the arrays), get hawkBit's action
     * and the time, without being read first; {@code %s}: their state after. A plain join of the devices with the
     * arrays, as {@link #UPDATE}: a first form that read the old states in a CTE and joined it with the arrays again
     * took seconds per statement at thousands of devices.
     */
    private static final String MARK = "update run_device d set state = %s, action_id = v.action_id,"
            + " assigned_at = timestamptz 'epoch' + ? * interval '1 microsecond',"
            + " detail = case when v.dropped then '" + DROPPED + "' else d.detail end"
            + " from unnest(cast(? as int8[]), cast(? as text[]), cast(? as int8[]), cast(? as bool[]))"
            + " as v(run_id, controller_id, action_id, dropped)"
            + " where d.run_id = v.run_id and d.controller_id = v.controller_id and d.state in (?, ?)"
            + " returning d.run_id, d.controller_id, d.state";

    /** Assignments hawkBit took again: the state stays, the action is hawkBit's latest. Runs before the next. */
    static final String MARK_TAKEN_AGAIN = String.format(MARK, "d.state");

    /** Intents hawkBit took: ASSIGNING → ASSIGNED, ROLLBACK_ASSIGNING → ROLLBACK_ASSIGNED, each through the guard. */
    static final String MARK_INTENTS = String.format(MARK, moves("d.state",
            DeviceState.ASSIGNING, DeviceState.ASSIGNED, DeviceState.ROLLBACK_ASSIGNING, DeviceState.ROLLBACK_ASSIGNED));

    /**
     * SQL for the state a device in each {@code from} goes to ({@code fromTo}: from, to, from, to …), every move made
     * through {@link DeviceState#to} as the statement is built: a move the guard does not allow fails at start-up.
     */
    static String moves(String column, DeviceState... fromTo) {
        StringBuilder sql = new StringBuilder("case ").append(column);
        for (int i = 0; i < fromTo.length; i += 2) {
            sql.append(" when ").append(SqlEnums.literal(fromTo[i])).append(" then ")
                    .append(SqlEnums.literal(fromTo[i].to(fromTo[i + 1])));
        }
        return sql.append(" end").toString();
    }

    /** Devices whose timeouts run: sent a set (or about to be), or finished and waiting to verify. */
    static final List<DeviceState> TIMED = List.of(DeviceState.ASSIGNING, DeviceState.ASSIGNED,
            DeviceState.ROLLBACK_ASSIGNING, DeviceState.ROLLBACK_ASSIGNED, DeviceState.VERIFYING);

    /**
     * Each device's unobserved seconds grow by the stretch, and to at least what keeps its deadline at or after
     * {@code notBefore}: the order timeout counts from its assignment, the verify timeout from when it began to verify.
     */
    private static final String EXTEND_DEVICES = "update run_device d set unobserved_seconds = greatest(d.unobserved_seconds + ?,"
            + " cast(ceil(extract(epoch from (cast(? as timestamptz) - case when d.state = "
            + SqlEnums.literal(DeviceState.VERIFYING) + " then d.verifying_since + make_interval(secs => ?)"
            + " else d.assigned_at + make_interval(secs => ?) end))) as bigint), 0)"
            + " where d.state = any(cast(? as text[])) and d.run_id = any(?)";

    @Inject
    BeforeCommit beforeCommit;

    @Inject
    DataSource dataSource;

    /** These new devices are written when the transaction commits, as they are then. */
    void inserted(List<RunDevice> devices) {
        Rows rows = beforeCommit.batch(Rows.class, Rows::new);
        devices.forEach(d -> rows.inserts.put(d, Boolean.TRUE));
    }

    /** This device, read by {@link #read}, has changed: written when the transaction commits, as it is then. */
    void changed(RunDevice device) {
        beforeCommit.batch(Rows.class, Rows::new).updates.put(device, Boolean.TRUE); // a new one stays an insert
    }

    /** The devices of these runs by run, each in order then controller id; plain objects, not entities. */
    Map<Long, List<RunDevice>> read(List<Long> runIds) {
        refuseWhileWaiting();
        Map<Long, List<RunDevice>> out = new LinkedHashMap<>();
        if (runIds.isEmpty()) {
            return out;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setArray(1, ArrayColumns.ids(connection, runIds));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    RunDevice d = row(rs);
                    out.computeIfAbsent(d.runId, k -> new ArrayList<>()).add(d);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("run devices could not be read: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * The devices of these runs whose timeouts run get {@code seconds} more, and none is due before {@code notBefore}
     * ({@code orderTimeout}, {@code verifyTimeout}: the deployment's), at once in this transaction.
     */
    void extendTimeouts(List<Long> runIds, long seconds, Instant notBefore, Duration orderTimeout, Duration verifyTimeout) {
        refuseWhileWaiting();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement extend = connection.prepareStatement(EXTEND_DEVICES)) {
            extend.setLong(1, seconds);
            extend.setTimestamp(2, Timestamp.from(notBefore));
            extend.setDouble(3, verifyTimeout == null ? 0 : verifyTimeout.toSeconds());
            extend.setDouble(4, orderTimeout == null ? 0 : orderTimeout.toSeconds());
            extend.setArray(5, connection.createArrayOf("text", TIMED.stream().map(Enum::name).toArray(String[]::new)));
            extend.setArray(6, ArrayColumns.ids(connection, runIds));
            extend.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("run devices' timeouts could not be extended: " + e.getMessage(), e);
        }
    }

    /** A run's devices deleted, at once in this transaction: the run is taken again and photographed afresh. */
    public void deleteOf(long runId) {
        refuseWhileWaiting();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement delete = connection.prepareStatement("delete from run_device where run_id = ?")) {
            delete.setLong(1, runId);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("run " + runId + "'s devices could not be deleted: " + e.getMessage(), e);
        }
    }

    /**
     * Per run and order being assigned, the device of the order before it (the highest lower order) that hawkBit said
     * finished last, with when, and the run's system type: one statement for every run of an assignment call.
     */
    static final String FINISHED_BEFORE = "select distinct on (a.run_id) a.run_id, a.ord, p.update_order,"
            + " p.controller_id, p.reported_at, t.name"
            + " from unnest(cast(? as int8[]), cast(? as int4[])) as a(run_id, ord)"
            + " join run_device p on p.run_id = a.run_id and p.reported_at is not null and p.update_order ="
            + " (select max(q.update_order) from run_device q where q.run_id = a.run_id and q.update_order < a.ord)"
            + " join system_run r on r.id = a.run_id join system_type t on t.id = r.system_type_id"
            + " order by a.run_id, p.reported_at desc, p.controller_id";

    /** The last device of the order before {@code order} to finish in hawkBit, of a run of {@code systemType}. */
    public record LastFinished(long runId, int order, int finishedOrder, String controllerId, Instant reportedAt,
                               String systemType) {
    }

    /**
     * For each run and the order it is being assigned, the last device of the order before to finish in hawkBit
     * (runs whose order before has none reported, or that start with this order, are left out).
     */
    List<LastFinished> finishedBefore(Map<Long, Integer> orderOfRun) {
        refuseWhileWaiting();
        List<LastFinished> out = new ArrayList<>();
        if (orderOfRun.isEmpty()) {
            return out;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(FINISHED_BEFORE)) {
            select.setArray(1, ArrayColumns.ids(connection, List.copyOf(orderOfRun.keySet())));
            select.setArray(2, connection.createArrayOf("int4", orderOfRun.values().toArray(Integer[]::new)));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    out.add(new LastFinished(rs.getLong(1), rs.getInt(2), rs.getInt(3), rs.getString(4), instant(rs, 5),
                            rs.getString(6)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the orders' last finished devices could not be read: " + e.getMessage(), e);
        }
        return out;
    }

    /** A device hawkBit took an assignment for: its action (null when hawkBit named none), its target dropped. */
    record Taken(long runId, String controllerId, Long actionId, boolean dropped) {
    }

    /** A device marked assigned: the state it was in and the one it is in now. */
    record Marked(long runId, String controllerId, DeviceState was, DeviceState now) {
    }

    /**
     * Marks these devices assigned at {@code at}, at once in this transaction: those in flight get hawkBit's action,
     * intents become assignments (forward or back), assignments taken again keep their state, and devices not in
     * flight any more are left alone. Returns those marked. A transaction with devices waiting to be written may not
     * (they would be written over at its commit).
     */
    List<Marked> markAssigned(List<Taken> taken, Instant at) {
        refuseWhileWaiting();
        List<Marked> out = new ArrayList<>();
        if (taken.isEmpty()) {
            return out;
        }
        try (Connection connection = dataSource.getConnection()) {
            // taken again first: an intent marked by the second statement is not marked again by the first
            mark(connection, MARK_TAKEN_AGAIN, taken, at, DeviceState.ASSIGNED, DeviceState.ROLLBACK_ASSIGNED, out);
            mark(connection, MARK_INTENTS, taken, at, DeviceState.ASSIGNING, DeviceState.ROLLBACK_ASSIGNING, out);
        } catch (SQLException e) {
            throw new IllegalStateException("run devices could not be marked assigned: " + e.getMessage(), e);
        }
        return out;
    }

    /** One of the two statements, for devices in {@code forward} or {@code back}; each marked move through the guard. */
    private static void mark(Connection connection, String sql, List<Taken> taken, Instant at, DeviceState forward,
                             DeviceState back, List<Marked> out) throws SQLException {
        try (PreparedStatement mark = connection.prepareStatement(sql)) {
            mark.setLong(1, micros(at));
            ArrayColumns<Taken> c = new ArrayColumns<>(connection, taken, mark, 2);
            c.add("int8", Taken::runId).add("text", Taken::controllerId).add("int8", Taken::actionId)
                    .add("bool", Taken::dropped);
            mark.setString(6, forward.name());
            mark.setString(7, back.name());
            try (ResultSet rs = mark.executeQuery()) {
                while (rs.next()) {
                    DeviceState now = DeviceState.valueOf(rs.getString(3));
                    DeviceState was = now.rollingBack() ? back : forward;
                    if (was != now) {
                        was.to(now); // the guard: a move it does not allow rolls the transaction back
                    }
                    out.add(new Marked(rs.getLong(1), rs.getString(2), was, now));
                }
            }
        }
    }

    private void refuseWhileWaiting() {
        Rows waiting = beforeCommit.existing(Rows.class);
        if (waiting != null && !waiting.isEmpty()) {
            throw new IllegalStateException("run devices are read or marked in a transaction that has some waiting to be"
                    + " written: it would not see them");
        }
    }

    private static RunDevice row(ResultSet rs) throws SQLException {
        RunDevice d = new RunDevice();
        d.runId = rs.getLong(1);
        d.controllerId = rs.getString(2);
        d.componentType = rs.getString(3);
        d.order = rs.getInt(4);
        d.fromSetId = rs.getObject(5, Long.class);
        d.fromSet = rs.getString(6);
        d.toSetId = rs.getLong(7);
        d.toSet = rs.getString(8);
        d.state = DeviceState.valueOf(rs.getString(9));
        d.failed = rs.getBoolean(10);
        d.intentAt = instant(rs, 11);
        d.assignedAt = instant(rs, 12);
        d.actionId = rs.getObject(13, Long.class);
        d.finishedAt = instant(rs, 14);
        d.detail = rs.getString(15);
        d.unobservedSeconds = rs.getLong(16);
        d.failure = rs.getString(17);
        d.verifyQuery = rs.getString(18);
        d.healthQuery = rs.getString(19);
        d.verifyingSince = instant(rs, 20);
        d.reportedAt = instant(rs, 21);
        return d;
    }

    private static final class Rows implements BeforeCommit.Batch {

        // by identity: a device is one object for its transaction, and its fields change until the commit
        final Map<RunDevice, Boolean> inserts = new IdentityHashMap<>();
        final Map<RunDevice, Boolean> updates = new IdentityHashMap<>();

        @Override
        public boolean isEmpty() {
            return inserts.isEmpty() && updates.isEmpty();
        }

        @Override
        public String what() {
            return "the runs' devices";
        }

        @Override
        public void clear() {
            inserts.clear();
            updates.clear();
        }

        @Override
        public void write(Connection connection) throws SQLException {
            List<RunDevice> fresh = List.copyOf(inserts.keySet());
            List<RunDevice> changed = updates.keySet().stream().filter(d -> !inserts.containsKey(d)).toList();
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (int from = 0; from < fresh.size(); from += ROWS_PER_STATEMENT) {
                    List<RunDevice> some = fresh.subList(from, Math.min(fresh.size(), from + ROWS_PER_STATEMENT));
                    ArrayColumns<RunDevice> c = new ArrayColumns<>(connection, some, insert);
                    c.add("int8", d -> d.runId).add("text", d -> d.controllerId).add("text", d -> d.componentType)
                            .add("int4", d -> d.order).add("int8", d -> d.fromSetId).add("text", d -> d.fromSet)
                            .add("int8", d -> d.toSetId).add("text", d -> d.toSet);
                    progress(c);
                    c.add("text", d -> d.verifyQuery).add("text", d -> d.healthQuery)
                            .add("int8", d -> micros(d.verifyingSince)).add("int8", d -> micros(d.reportedAt));
                    insert.executeUpdate();
                }
            }
            try (PreparedStatement update = connection.prepareStatement(UPDATE)) {
                for (int from = 0; from < changed.size(); from += ROWS_PER_STATEMENT) {
                    List<RunDevice> some = changed.subList(from, Math.min(changed.size(), from + ROWS_PER_STATEMENT));
                    ArrayColumns<RunDevice> c = new ArrayColumns<>(connection, some, update);
                    c.add("int8", d -> d.runId).add("text", d -> d.controllerId);
                    progress(c);
                    c.add("int8", d -> micros(d.verifyingSince)).add("int8", d -> micros(d.reportedAt));
                    int updated = update.executeUpdate();
                    if (updated != some.size()) {
                        throw new SQLException(some.size() + " run devices to update, " + updated + " found: another"
                                + " transaction removed some");
                    }
                }
            }
        }

        /** The columns from state to failure, in both statements' order. */
        private static void progress(ArrayColumns<RunDevice> c) throws SQLException {
            c.add("text", d -> d.state.name()).add("bool", d -> d.failed).add("int8", d -> micros(d.intentAt))
                    .add("int8", d -> micros(d.assignedAt)).add("int8", d -> d.actionId)
                    .add("int8", d -> micros(d.finishedAt)).add("text", d -> d.detail)
                    .add("int8", d -> d.unobservedSeconds).add("text", d -> d.failure);
        }
    }
}
