package io.qawk.orchestrator.guard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The guard's tables: the threats of the last pass ({@code threat}) and what the guard did ({@code guard_hold}), and
 * the inventory's systems as the guard reads them. Plain JDBC on the caller's transaction.
 * <p>
 * One class: the guard's SQL over its two tables behind one set of JDBC helpers (query, update, JSON in and out),
 * as RunStore keeps the engine's writes in one place.
 */
@ApplicationScoped
public class ThreatStore {

    /** Serialises the guard's passes across replicas: only the holder of this lock acts on hawkBit. */
    static final long LOCK = 0x7177616b6775617dL;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    /** A hold as stored. */
    public record Hold(long id, ThreatSource source, long hawkbitId, String name, HoldKind what, String controllerId,
                       Long actionId, Long distributionSetId, String distributionSet, String actionType,
                       String reason, List<Threat.AtSystem> systems, Instant heldAt, Instant releasedAt,
                       String releasedBy) {

        boolean released() {
            return releasedAt != null;
        }
    }

    /** A member with an assignment in hawkBit that is not its installed set and that no Qawk run is driving. */
    record ForeignAssignment(String device, long setId, String set) {
    }

    /** Takes the guard's lock for this transaction; false when another replica's guard holds it. */
    boolean tryLock() {
        return query("select pg_try_advisory_xact_lock(?)", ps -> ps.setLong(1, LOCK), rs -> {
            rs.next();
            return rs.getBoolean(1);
        });
    }

    /** The systems with a member among {@code devices}, each with all its members and their installed sets. */
    Map<SystemNow.Key, List<SystemNow.Member>> systemsHolding(Collection<String> devices) {
        Map<SystemNow.Key, List<SystemNow.Member>> out = new LinkedHashMap<>();
        if (devices.isEmpty()) {
            return out;
        }
        return query("select m.system_type_id, m.system_name, m.component_type, m.controller_id, d.installed_set"
                + " from system_member m join device d on d.controller_id = m.controller_id"
                + " where m.problem is null and (m.system_type_id, m.system_name) in (select system_type_id, system_name"
                + " from system_member where problem is null and system_name is not null and controller_id = any(?))"
                + " order by m.system_type_id, m.system_name, m.component_type, m.controller_id",
                ps -> ps.setArray(1, ps.getConnection().createArrayOf("varchar", devices.toArray())), rs -> {
                    while (rs.next()) {
                        out.computeIfAbsent(new SystemNow.Key(rs.getLong(1), rs.getString(2)), k -> new ArrayList<>())
                                .add(new SystemNow.Member(rs.getString(3), rs.getString(4), rs.getString(5)));
                    }
                    return out;
                });
    }

    /**
     * Members whose assigned set is not their installed one while no run of Qawk's drives them (nor went back with
     * that set and could not finish): an assignment someone else made, at most {@code limit} of them.
     */
    List<ForeignAssignment> foreignAssignments(int limit) {
        String underWay = SqlEnums.list(RunState.UNDER_WAY.toArray(new RunState[0]));
        return query("select distinct m.controller_id, d.assigned_set_id, d.assigned_set from system_member m"
                + " join device d on d.controller_id = m.controller_id"
                + " where m.problem is null and m.system_name is not null and d.assigned_set_id is not null"
                + " and d.assigned_set is distinct from d.installed_set"
                + " and not exists (select 1 from run_device rd join system_run r on r.id = rd.run_id"
                + "   where rd.controller_id = m.controller_id and (r.state in " + underWay
                + "   or (r.state = " + SqlEnums.literal(RunState.ROLLBACK_FAILED)
                + "       and d.assigned_set_id in (rd.to_set_id, rd.from_set_id))))"
                + " order by m.controller_id limit ?", ps -> ps.setInt(1, limit), rs -> {
                    List<ForeignAssignment> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new ForeignAssignment(rs.getString(1), rs.getLong(2), rs.getString(3)));
                    }
                    return out;
                });
    }

    /**
     * Which of these devices a run of Qawk's is driving now: their open actions are Qawk's own, which the guard never
     * cancels (hawkBit's action lists name no set on 0.3.0M7 nor 1.x, so a held rollout's actions cannot be told from
     * them by the set alone).
     */
    Set<String> drivenByQawk(Collection<String> devices) {
        if (devices.isEmpty()) {
            return Set.of();
        }
        String underWay = SqlEnums.list(RunState.UNDER_WAY.toArray(new RunState[0]));
        return query("select distinct rd.controller_id from run_device rd join system_run r on r.id = rd.run_id"
                + " where r.state in " + underWay + " and rd.controller_id = any(?)",
                ps -> ps.setArray(1, ps.getConnection().createArrayOf("varchar", devices.toArray())), rs -> {
                    Set<String> out = new HashSet<>();
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                    return out;
                });
    }

    /** Every hold, newest first. */
    List<Hold> holds() {
        return holds("", ps -> {
        });
    }

    /** The holds touching a system of this type (and this system, when given), newest first; all when both null. */
    public List<Hold> holds(Long systemTypeId, String system) {
        if (systemTypeId == null) {
            return holds();
        }
        if (system == null) {
            return holds(" where ? = any(system_type_ids)", ps -> ps.setLong(1, systemTypeId));
        }
        return holds(" where ? = any(system_type_ids) and systems @> cast(? as jsonb)", ps -> {
            ps.setLong(1, systemTypeId);
            ps.setString(2, write(List.of(Map.of("systemTypeId", systemTypeId, "system", system))));
        });
    }

    public Optional<Hold> hold(long id) {
        List<Hold> found = holds(" where id = ?", ps -> ps.setLong(1, id));
        return found.stream().findFirst();
    }

    private List<Hold> holds(String where, Binder binder) {
        return query("select id, source, hawkbit_id, name, what, controller_id, action_id, distribution_set_id,"
                + " distribution_set, action_type, reason, systems::text, held_at, released_at, released_by"
                + " from guard_hold" + where + " order by id desc", binder, rs -> {
                    List<Hold> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Hold(rs.getLong(1), ThreatSource.valueOf(rs.getString(2)), rs.getLong(3),
                                rs.getString(4), HoldKind.valueOf(rs.getString(5)), rs.getString(6),
                                (Long) rs.getObject(7), (Long) rs.getObject(8), rs.getString(9), rs.getString(10),
                                rs.getString(11), read(rs.getString(12), SYSTEMS), instant(rs.getTimestamp(13)),
                                instant(rs.getTimestamp(14)), rs.getString(15)));
                    }
                    return out;
                });
    }

    /** Stores what the guard did; returns its id. */
    long addHold(ThreatSource source, long hawkbitId, String name, HoldKind what, String controllerId, Long actionId,
                 Long setId, String set, String actionType, String reason, List<Threat.AtSystem> systems,
                 Instant at) {
        return query("insert into guard_hold (source, hawkbit_id, name, what, controller_id, action_id,"
                + " distribution_set_id, distribution_set, action_type, reason, system_type_ids, systems, held_at)"
                + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?) returning id", ps -> {
                    ps.setString(1, source.name());
                    ps.setLong(2, hawkbitId);
                    ps.setString(3, truncate(name, 512));
                    ps.setString(4, what.name());
                    ps.setString(5, controllerId);
                    ps.setObject(6, actionId);
                    ps.setObject(7, setId);
                    ps.setString(8, set);
                    ps.setString(9, actionType);
                    ps.setString(10, reason);
                    ps.setArray(11, typeIds(ps.getConnection(), systems));
                    ps.setString(12, write(systems));
                    ps.setTimestamp(13, Timestamp.from(at));
                }, rs -> {
                    rs.next();
                    return rs.getLong(1);
                });
    }

    /** Marks a hold released (by a person, or by whoever resumed its rollout in hawkBit); false when it was already. */
    public boolean release(long id, String by, Instant at) {
        return update("update guard_hold set released_at = ?, released_by = ? where id = ? and released_at is null",
                ps -> {
                    ps.setTimestamp(1, Timestamp.from(at));
                    ps.setString(2, truncate(by, 128));
                    ps.setLong(3, id);
                }) == 1;
    }

    /** Replaces the threats with this pass's, keeping when each was first seen. */
    void replaceThreats(List<StoredThreat> threats, Instant now) {
        Map<String, Instant> firstSeen = query("select source, hawkbit_id, seen_at from threat", ps -> {
        }, rs -> {
            Map<String, Instant> out = new LinkedHashMap<>();
            while (rs.next()) {
                out.put(rs.getString(1) + "/" + rs.getLong(2), instant(rs.getTimestamp(3)));
            }
            return out;
        });
        update("delete from threat", ps -> {
        });
        for (StoredThreat t : threats) {
            PendingWork w = t.threat().work();
            update("insert into threat (source, hawkbit_id, name, status, distribution_set_id, distribution_set,"
                    + " action, system_type_ids, systems, seen_at, updated_at)"
                    + " values (?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, ?)", ps -> {
                        ps.setString(1, w.source().name());
                        ps.setLong(2, w.hawkbitId());
                        ps.setString(3, truncate(w.name(), 512));
                        ps.setString(4, truncate(w.status(), 32));
                        ps.setLong(5, w.setId());
                        ps.setString(6, w.set());
                        ps.setString(7, t.action().name());
                        ps.setArray(8, typeIds(ps.getConnection(), t.threat().systems()));
                        ps.setString(9, write(t.threat().systems()));
                        ps.setTimestamp(10, Timestamp.from(firstSeen.getOrDefault(w.source().name() + "/"
                                + w.hawkbitId(), now)));
                        ps.setTimestamp(11, Timestamp.from(now));
                    });
        }
    }

    /** A threat as stored, with what the guard did about it. */
    record StoredThreat(Threat threat, ThreatAction action) {
    }

    /** A threat row as the API reads it. */
    public record Row(ThreatSource source, long hawkbitId, String name, String status, Long distributionSetId,
                      String distributionSet, ThreatAction action, List<Threat.AtSystem> systems, Instant seenAt,
                      Instant updatedAt) {
    }

    /** The threats touching a system of this type (any when null) from this source (any when null), oldest first. */
    public List<Row> threats(Long systemTypeId, ThreatSource source) {
        StringBuilder where = new StringBuilder(" where true");
        List<Object> args = new ArrayList<>();
        if (systemTypeId != null) {
            where.append(" and ? = any(system_type_ids)");
            args.add(systemTypeId);
        }
        if (source != null) {
            where.append(" and source = ?");
            args.add(source.name());
        }
        return query("select source, hawkbit_id, name, status, distribution_set_id, distribution_set, action,"
                + " systems::text, seen_at, updated_at from threat" + where + " order by seen_at, id", ps -> {
                    for (int i = 0; i < args.size(); i++) {
                        ps.setObject(i + 1, args.get(i));
                    }
                }, rs -> {
                    List<Row> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Row(ThreatSource.valueOf(rs.getString(1)), rs.getLong(2), rs.getString(3),
                                rs.getString(4), (Long) rs.getObject(5), rs.getString(6),
                                ThreatAction.valueOf(rs.getString(7)), read(rs.getString(8), SYSTEMS),
                                instant(rs.getTimestamp(9)), instant(rs.getTimestamp(10))));
                    }
                    return out;
                });
    }

    /** Threats per source and system type name, for the gauge: every type and source, 0 where none. */
    Map<List<String>, Long> counts() {
        return query("select s.source, st.name, count(t.id) from system_type st"
                + " cross join unnest(cast(? as varchar[])) s(source)"
                + " left join threat t on t.source = s.source and st.id = any(t.system_type_ids)"
                + " group by s.source, st.name", ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("varchar",
                    Arrays.stream(ThreatSource.values()).map(Enum::name).toArray()));
        }, rs -> {
            Map<List<String>, Long> out = new LinkedHashMap<>();
            while (rs.next()) {
                out.put(List.of(ThreatSource.valueOf(rs.getString(1)).word(), rs.getString(2)), rs.getLong(3));
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- JDBC

    private static final TypeReference<List<Threat.AtSystem>> SYSTEMS = new TypeReference<>() {
    };

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String sql, Binder binder, Reader<T> reader) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the guard's tables could not be read: " + e.getMessage(), e);
        }
    }

    private int update(String sql, Binder binder) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the guard's tables could not be written: " + e.getMessage(), e);
        }
    }

    private static Array typeIds(Connection c, List<Threat.AtSystem> systems) throws SQLException {
        return c.createArrayOf("int8", systems.stream().map(Threat.AtSystem::systemTypeId).distinct()
                .toArray(Long[]::new));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a threat could not be written as JSON", e);
        }
    }

    private <T> T read(String text, TypeReference<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored threat could not be read", e);
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
