package io.qawk.orchestrator.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads and writes the inventory tables with plain JDBC in batches: a sync writes tens of thousands of rows. */
@ApplicationScoped
public class InventoryStore {

    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {
    };
    private static final int BATCH = 1000;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    /** Every device the inventory holds, by controller id. */
    @Transactional
    public Map<String, DeviceRecord> loadDevices() {
        Map<String, DeviceRecord> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select controller_id, name, update_status, last_poll_at, installed_at,"
                     + " installed_set_id, installed_set, assigned_set_id, assigned_set, attributes, metadata from device")) {
            ps.setFetchSize(2000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    DeviceRecord d = new DeviceRecord(rs.getString(1), rs.getString(2), rs.getString(3),
                            instant(rs.getTimestamp(4)), instant(rs.getTimestamp(5)), longOrNull(rs, 6), rs.getString(7),
                            longOrNull(rs, 8), rs.getString(9), map(rs.getString(10)), map(rs.getString(11)));
                    out.put(d.controllerId(), d);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the inventory", e);
        }
        return out;
    }

    /**
     * Replaces the inventory with what one sync observed: devices upserted, vanished ones removed,
     * and every system type's memberships rewritten. One transaction, so readers never see half a sync.
     */
    @Transactional
    public void replace(Collection<DeviceRecord> devices, Set<Long> systemTypeIds, List<Membership> memberships,
                        Instant syncedAt) {
        try (Connection c = dataSource.getConnection()) {
            upsertDevices(c, devices, syncedAt);
            try (PreparedStatement ps = c.prepareStatement("delete from device where synced_at < ?")) {
                ps.setTimestamp(1, Timestamp.from(syncedAt));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("delete from system_member where system_type_id = ?")) {
                for (Long id : systemTypeIds) {
                    ps.setLong(1, id);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            insertMemberships(c, memberships);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the inventory", e);
        }
    }

    /**
     * Recomputes the discovered systems from the memberships and channel membership: devices, devices per component,
     * centre (the smallest when devices disagree), the channel all devices are in, and whether they are mixed.
     */
    @Transactional
    public void refreshSystems() {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("delete from discovered_system")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "insert into discovered_system (system_type_id, system_name, group_name, devices, components, fleet_id, mixed)"
                            + " with per_device as ("
                            + "   select m.system_type_id, m.system_name, m.component_type, m.group_name, m.controller_id,"
                            + "     (select count(*) from fleet_member f where f.controller_id = m.controller_id and not f.conflict) in_fleet,"
                            + "     (select count(*) from fleet_member f where f.controller_id = m.controller_id and f.conflict) conflicts,"
                            + "     (select min(f.fleet_id) from fleet_member f where f.controller_id = m.controller_id and not f.conflict) fleet_id"
                            + "   from system_member m where m.problem is null),"
                            + " per_component as ("
                            + "   select system_type_id, system_name, component_type, count(*) n from per_device"
                            + "   group by system_type_id, system_name, component_type)"
                            + " select d.system_type_id, d.system_name, min(d.group_name), count(*),"
                            + "   (select jsonb_object_agg(pc.component_type, pc.n) from per_component pc"
                            + "     where pc.system_type_id = d.system_type_id and pc.system_name = d.system_name),"
                            + "   case when count(distinct d.fleet_id) = 1 and sum(d.in_fleet) = count(*) and sum(d.conflicts) = 0"
                            + "     then min(d.fleet_id) end,"
                            + "   not (count(distinct d.fleet_id) = 1 and sum(d.in_fleet) = count(*) and sum(d.conflicts) = 0)"
                            + "     and (sum(d.in_fleet) > 0 or sum(d.conflicts) > 0)"
                            + " from per_device d group by d.system_type_id, d.system_name")) {
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
