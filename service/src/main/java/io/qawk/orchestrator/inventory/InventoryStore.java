package io.qawk.orchestrator.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * Reads and writes the inventory tables with plain JDBC in batches: a sync writes tens of thousands of rows.
 * <p>
 * One class: the transaction that replaces the inventory and the reads the next sync compares against must agree on
 * the same columns.
 */
@ApplicationScoped
public class InventoryStore {

    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {
    };
    private static final int BATCH = 1000;
    /**
     * The Postgres advisory lock (namespace, key) a sync's writes take for their transaction: two replicas on one
     * database (a rolling update) write the inventory one after the other, never both at once.
     */
    static final int LOCK_NAMESPACE = 0x5141575A;
    static final int LOCK_KEY = 1;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    InventoryConfig config;

    @Inject
    Drift drift;

    /** {@code work} in the caller's transaction, or in one of its own with the sync's timeout (not the requests'). */
    private <T> T inTransaction(Callable<T> work) {
        return QuarkusTransaction.joiningExisting().timeout(timeoutSeconds(config)).call(work);
    }

    /** The sync's transaction timeout in whole seconds, at least one. */
    public static int timeoutSeconds(InventoryConfig config) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, config.transactionTimeout().toSeconds()));
    }

    /**
     * Every device the inventory holds, by controller id. A sync holds all of them at once (100,000 at the sizes
     * benchmarked), so repeated texts (attribute names and values, set labels, statuses) are shared, not copied per
     * device, and attribute maps are compact immutable ones.
     */
    public Map<String, DeviceRecord> loadDevices() {
        return inTransaction(this::readDevices);
    }

    private Map<String, DeviceRecord> readDevices() {
        Map<String, DeviceRecord> out = new HashMap<>();
        Map<String, String> shared = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select controller_id, name, update_status, last_poll_at, installed_at,"
                     + " installed_set_id, installed_set, assigned_set_id, assigned_set, attributes, metadata from device")) {
            ps.setFetchSize(2000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    String name = rs.getString(2);
                    DeviceRecord d = new DeviceRecord(id, id.equals(name) ? id : name, share(shared, rs.getString(3)),
                            instant(rs.getTimestamp(4)), instant(rs.getTimestamp(5)), longOrNull(rs, 6),
                            share(shared, rs.getString(7)), longOrNull(rs, 8), share(shared, rs.getString(9)),
                            compact(shared, map(rs.getString(10))), compact(shared, map(rs.getString(11))));
                    out.put(d.controllerId(), d);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the inventory", e);
        }
        return out;
    }

    /** The memberships the inventory holds for these system types. */
    public Set<Membership> loadMemberships(Set<Long> systemTypeIds) {
        return inTransaction(() -> readMemberships(systemTypeIds));
    }

    private Set<Membership> readMemberships(Set<Long> systemTypeIds) {
        Set<Membership> out = new HashSet<>();
        Map<String, String> shared = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select system_type_id, controller_id, component_type, system_name,"
                     + " group_name, problem from system_member where system_type_id = any(?)")) {
            ps.setArray(1, c.createArrayOf("bigint", systemTypeIds.toArray()));
            ps.setFetchSize(2000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Membership(rs.getLong(1), rs.getString(2), share(shared, rs.getString(3)),
                            share(shared, rs.getString(4)), share(shared, rs.getString(5)),
                            rs.getString(6) == null ? null : Membership.Problem.valueOf(rs.getString(6))));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the memberships", e);
        }
        return out;
    }

    /** What one sync wrote. */
    public record Written(int devicesWritten, int devicesRemoved, int membershipsRemoved, int membershipsAdded) {
    }

    /**
     * Brings the inventory to what one sync observed, writing only the difference: devices that are new or changed are
     * upserted, vanished ones removed, and memberships that changed replaced. One transaction, so readers never see
     * half a sync. A sync that found nothing new writes nothing.
     *
     * @param known  the devices as stored before the sync
     * @param before the memberships of these system types as stored before the sync
     */
    public Written apply(Map<String, DeviceRecord> known, Collection<DeviceRecord> devices, Set<Membership> before,
                         Set<Membership> memberships, Instant syncedAt) {
        return inTransaction(() -> write(known, devices, before, memberships, syncedAt));
    }

    private Written write(Map<String, DeviceRecord> known, Collection<DeviceRecord> devices, Set<Membership> before,
                          Set<Membership> memberships, Instant syncedAt) {
        List<DeviceRecord> changed = devices.stream().filter(d -> !same(known.get(d.controllerId()), d)).toList();
        Set<String> present = new HashSet<>();
        devices.forEach(d -> present.add(d.controllerId()));
        List<String> vanished = known.keySet().stream().filter(id -> !present.contains(id)).toList();
        List<Membership> removed = before.stream().filter(m -> !memberships.contains(m)).toList();
        List<Membership> added = memberships.stream().filter(m -> !before.contains(m)).toList();
        try (Connection c = dataSource.getConnection()) {
            lockForTheTransaction(c);
            upsertDevices(c, changed, syncedAt);
            try (PreparedStatement ps = c.prepareStatement(
                    "delete from system_member where system_type_id = ? and controller_id = ?")) {
                int n = 0;
                for (Membership m : removed) {
                    ps.setLong(1, m.systemTypeId());
                    ps.setString(2, m.controllerId());
                    ps.addBatch();
                    if (++n % BATCH == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement("delete from device where controller_id = any(?)")) {
                ps.setArray(1, c.createArrayOf("varchar", vanished.toArray()));
                ps.executeUpdate();
            }
            insertMemberships(c, added);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the inventory", e);
        }
        return new Written(changed.size(), vanished.size(), removed.size(), added.size());
    }

    /**
     * Whether the stored row can stay: nothing but the last poll moved, and that by less than a minute (devices poll
     * all the time; rewriting every row for it would make every sync rewrite the whole inventory).
     */
    static boolean same(DeviceRecord stored, DeviceRecord seen) {
        if (stored == null) {
            return false;
        }
        if (!Objects.equals(stored.lastPollAt(), seen.lastPollAt())) {
            if (stored.lastPollAt() == null || seen.lastPollAt() == null
                    || Duration.between(stored.lastPollAt(), seen.lastPollAt()).abs().compareTo(POLL_RESOLUTION) >= 0) {
                return false;
            }
        }
        return stored.equals(new DeviceRecord(seen.controllerId(), seen.name(), seen.updateStatus(), stored.lastPollAt(),
                seen.installedAt(), seen.installedSetId(), seen.installedSet(), seen.assignedSetId(), seen.assignedSet(),
                seen.attributes(), seen.metadata()));
    }

    /** How stale a device's stored last poll may get before its row is rewritten for it. */
    static final Duration POLL_RESOLUTION = Duration.ofMinutes(1);

    /**
     * Recomputes the discovered systems from the memberships and channel membership: devices, devices per component,
     * centre (the smallest when devices disagree), the channel all devices are in, whether they are mixed, what each
     * component runs ({@code versions}) and, for the types with compatibility rules, the rule a system breaks; the
     * census's mixes are counted for the types in {@code rules} (the sync passes every type).
     */
    public void refreshSystems(Map<Long, CompatibilityRules> rules) {
        inTransaction(() -> {
            recomputeSystems();
            try (Connection c = dataSource.getConnection()) {
                for (Map.Entry<Long, CompatibilityRules> e : rules.entrySet()) {
                    drift.mark(c, e.getKey(), e.getValue());
                }
            }
            return null;
        });
    }

    /**
     * Waits for, then holds until the transaction ends, the inventory's advisory lock: another replica's sync that is
     * rebuilding the discovered systems (delete, then insert) finishes first, so the two never insert the same system
     * ({@code discovered_system_pkey}).
     */
    private static void lockForTheTransaction(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(?, ?)")) {
            ps.setInt(1, LOCK_NAMESPACE);
            ps.setInt(2, LOCK_KEY);
            ps.execute();
        }
    }

    private void recomputeSystems() {
        try (Connection c = dataSource.getConnection()) {
            lockForTheTransaction(c);
            try (PreparedStatement ps = c.prepareStatement("delete from discovered_system")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("delete from discovered_count")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("delete from discovered_mix")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    // every step a join or a grouping (no correlated subquery per system or per device): linear in
                    // the members, about a second at 100,000 devices
                    "insert into discovered_system (system_type_id, system_name, group_name, devices, components, fleet_id, mixed,"
                            + " versions)"
                            + " with channel as ("
                            + "   select controller_id, count(*) filter (where not conflict) in_fleet,"
                            + "     count(*) filter (where conflict) conflicts, min(fleet_id) filter (where not conflict) fleet_id"
                            + "   from fleet_member group by controller_id),"
                            + " per_device as ("
                            + "   select m.system_type_id, m.system_name, m.component_type, m.group_name,"
                            + "     coalesce(f.in_fleet, 0) in_fleet, coalesce(f.conflicts, 0) conflicts, f.fleet_id,"
                            + "     d.installed_set"
                            + "   from system_member m left join channel f on f.controller_id = m.controller_id"
                            + "   join device d on d.controller_id = m.controller_id"
                            + "   where m.problem is null),"
                            // what each component runs: its devices' distinct sets, sorted, null for "nothing"
                            + " per_component as ("
                            + "   select system_type_id, system_name, component_type, count(*) n,"
                            + "     jsonb_agg(distinct installed_set order by installed_set) sets from per_device"
                            + "   group by system_type_id, system_name, component_type),"
                            + " components as ("
                            + "   select system_type_id, system_name, jsonb_object_agg(component_type, n) components,"
                            + "     jsonb_object_agg(component_type, sets) versions"
                            + "   from per_component group by system_type_id, system_name),"
                            + " per_system as ("
                            + "   select system_type_id, system_name, min(group_name) group_name, count(*) devices,"
                            + "     count(distinct fleet_id) fleets, sum(in_fleet) in_fleet, sum(conflicts) conflicts,"
                            + "     min(fleet_id) fleet_id"
                            + "   from per_device group by system_type_id, system_name)"
                            + " select s.system_type_id, s.system_name, s.group_name, s.devices, c.components,"
                            + "   case when s.fleets = 1 and s.in_fleet = s.devices and s.conflicts = 0 then s.fleet_id end,"
                            + "   not (s.fleets = 1 and s.in_fleet = s.devices and s.conflicts = 0)"
                            + "     and (s.in_fleet > 0 or s.conflicts > 0), c.versions"
                            + " from per_system s join components c"
                            + "   on c.system_type_id = s.system_type_id and c.system_name = s.system_name")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("insert into discovered_count (system_type_id, group_name, systems)"
                    + " select system_type_id, group_name, count(*) from discovered_system group by system_type_id, group_name")) {
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not compute the discovered systems", e);
        }
    }

    private void upsertDevices(Connection c, Collection<DeviceRecord> devices, Instant syncedAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into device (controller_id, name, update_status, last_poll_at,"
                + " installed_at, installed_set_id, installed_set, assigned_set_id, assigned_set, attributes, metadata, synced_at)"
                + " values (?,?,?,?,?,?,?,?,?,?::jsonb,?::jsonb,?) on conflict (controller_id) do update set"
                + " name = excluded.name, update_status = excluded.update_status, last_poll_at = excluded.last_poll_at,"
                + " installed_at = excluded.installed_at, installed_set_id = excluded.installed_set_id,"
                + " installed_set = excluded.installed_set, assigned_set_id = excluded.assigned_set_id,"
                + " assigned_set = excluded.assigned_set, attributes = excluded.attributes, metadata = excluded.metadata,"
                + " synced_at = excluded.synced_at")) {
            int n = 0;
            for (DeviceRecord d : devices) {
                ps.setString(1, d.controllerId());
                ps.setString(2, d.name());
                ps.setString(3, d.updateStatus());
                ps.setTimestamp(4, timestamp(d.lastPollAt()));
                ps.setTimestamp(5, timestamp(d.installedAt()));
                setLong(ps, 6, d.installedSetId());
                ps.setString(7, d.installedSet());
                setLong(ps, 8, d.assignedSetId());
                ps.setString(9, d.assignedSet());
                ps.setString(10, toJson(d.attributes() == null ? Map.of() : d.attributes()));
                ps.setString(11, d.metadata() == null ? null : toJson(d.metadata()));
                ps.setTimestamp(12, Timestamp.from(syncedAt));
                ps.addBatch();
                if (++n % BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    private static void insertMemberships(Connection c, List<Membership> memberships) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into system_member (system_type_id, controller_id,"
                + " component_type, system_name, group_name, problem) values (?,?,?,?,?,?)")) {
            int n = 0;
            for (Membership m : memberships) {
                ps.setLong(1, m.systemTypeId());
                ps.setString(2, m.controllerId());
                ps.setString(3, m.componentType());
                ps.setString(4, m.system());
                ps.setString(5, m.group());
                ps.setString(6, m.problem() == null ? null : m.problem().name());
                ps.addBatch();
                if (++n % BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    private String toJson(Map<String, String> map) {
        try {
            return json.writeValueAsString(map);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> map(String text) {
        if (text == null) {
            return null;
        }
        try {
            return json.readValue(text, MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable JSON in the inventory", e);
        }
    }

    private static String share(Map<String, String> shared, String text) {
        return text == null ? null : shared.computeIfAbsent(text, t -> t);
    }

    private static Map<String, String> compact(Map<String, String> shared, Map<String, String> map) {
        if (map == null) {
            return null;
        }
        Map<String, String> out = new HashMap<>(map.size() * 2);
        map.forEach((k, v) -> out.put(share(shared, k), share(shared, v)));
        return out.containsKey(null) || out.containsValue(null) ? out : Map.copyOf(out);
    }

    static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    static Timestamp timestamp(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    static Long longOrNull(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    private static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }
}
