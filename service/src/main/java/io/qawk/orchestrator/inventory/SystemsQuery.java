package io.qawk.orchestrator.inventory;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Answers what systems the devices form, from the inventory in Postgres; never waits for hawkBit. */
@ApplicationScoped
public class SystemsQuery {

    private static final TypeReference<Map<String, Integer>> COUNTS = new TypeReference<>() {
    };

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    /** A page of systems with the type's count of problem devices; empty when the type does not exist. */
    public record Listing(Page<SystemSummary> page, long problemDevices) {
    }

    /** {@link #systems} and the problem count in one transaction; empty when there is no such system type. */
    @Transactional
    public Optional<Listing> listing(long systemTypeId, String group, int offset, int limit) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select (select count(*) from system_member m"
                     + " where m.system_type_id = t.id and m.problem is not null) from system_type t where t.id = ?")) {
            ps.setLong(1, systemTypeId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long problems = rs.getLong(1);
                return Optional.of(new Listing(systems(c, systemTypeId, group, offset, limit), problems));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the systems", e);
        }
    }

    /** One page of a type's systems, sorted by name, optionally only those of one centre. */
    @Transactional
    public Page<SystemSummary> systems(long systemTypeId, String group, int offset, int limit) {
        try (Connection c = dataSource.getConnection()) {
            return systems(c, systemTypeId, group, offset, limit);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the systems", e);
        }
    }

    private Page<SystemSummary> systems(Connection c, long systemTypeId, String group, int offset, int limit)
            throws SQLException {
        String where = "s.system_type_id = ?" + (group != null ? " and s.group_name = ?" : "");
        try {
            long total;
            try (PreparedStatement ps = c.prepareStatement("select coalesce(sum(s.systems), 0) from discovered_count s where "
                    + where)) {
                bind(ps, systemTypeId, group);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    total = rs.getLong(1);
                }
            }
            List<SystemSummary> content = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "select s.system_name, s.devices, s.components, s.group_name, f.name, s.mixed, s.fleet_id"
                            + " from discovered_system s left join fleet f on f.id = s.fleet_id where " + where
                            + " order by s.system_name offset ? limit ?")) {
                int i = bind(ps, systemTypeId, group);
                ps.setInt(i++, offset);
                ps.setInt(i, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Integer> components = new TreeMap<>(json.readValue(rs.getString(3), COUNTS));
                        content.add(new SystemSummary(rs.getString(1), rs.getInt(2), components, rs.getString(4),
                                rs.getString(5), rs.getBoolean(6), InventoryStore.longOrNull(rs, 7)));
                    }
                }
            }
            return new Page<>(total, content);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable components of a discovered system", e);
        }
    }

    /** Every system of a type with its centre, sorted by name (for scoping a deployment). */
    @Transactional
    public List<SystemSummary> allSystems(long systemTypeId) {
        return systems(systemTypeId, null, 0, Integer.MAX_VALUE).content();
    }

    /** The devices of one system, or an empty list when the system does not exist. */
    @Transactional
    public List<SystemDevice> devices(long systemTypeId, String system) {
        return deviceRows("m.system_type_id = ? and m.system_name = ? and m.problem is null", systemTypeId, system, 0, 100_000);
    }

    /**
     * The devices of each of these systems, by system name (systems that do not exist are left out): one query for
     * all of them, so starting hundreds of systems in a pass does not ask Postgres once per system.
     */
    @Transactional
    public Map<String, List<SystemDevice>> devicesOf(long systemTypeId, Collection<String> systems) {
        Map<String, List<SystemDevice>> out = new LinkedHashMap<>();
        if (systems.isEmpty()) {
            return out;
        }
        String sql = "select " + DEVICE_COLUMNS + " from system_member m join device d on d.controller_id = m.controller_id"
                + " where m.system_type_id = ? and m.system_name = any(?) and m.problem is null"
                + " order by m.system_name, m.component_type, m.controller_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, systemTypeId);
            ps.setArray(2, c.createArrayOf("varchar", systems.stream().distinct().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    SystemDevice d = deviceOf(rs);
                    out.computeIfAbsent(d.system(), k -> new ArrayList<>()).add(d);
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Devices that match a component but form no system (no system key, or several components). */
    @Transactional
    public Page<SystemDevice> problems(long systemTypeId, int offset, int limit) {
        long total = count("select count(*) from system_member where system_type_id = ? and problem is not null", systemTypeId);
        return new Page<>(total, deviceRows("m.system_type_id = ? and m.problem is not null", systemTypeId, null, offset, limit));
    }

    private long count(String sql, long systemTypeId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, systemTypeId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<SystemDevice> deviceRows(String where, long systemTypeId, String system, int offset, int limit) {
        String sql = "select " + DEVICE_COLUMNS + " from system_member m join device d on d.controller_id = m.controller_id"
                + " where " + where
                + " order by m.component_type, m.controller_id offset ? limit ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            ps.setLong(i++, systemTypeId);
            if (system != null) {
                ps.setString(i++, system);
            }
            ps.setInt(i++, offset);
            ps.setInt(i, limit);
            List<SystemDevice> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(deviceOf(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String DEVICE_COLUMNS = "m.controller_id, m.component_type, m.system_name, m.group_name,"
            + " m.problem, d.installed_set_id, d.installed_set, d.assigned_set_id, d.assigned_set, d.update_status,"
            + " d.last_poll_at";

    /** A row of {@link #DEVICE_COLUMNS}. */
    private static SystemDevice deviceOf(ResultSet rs) throws SQLException {
        return new SystemDevice(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                InventoryStore.longOrNull(rs, 6), rs.getString(7), InventoryStore.longOrNull(rs, 8), rs.getString(9),
                rs.getString(10), InventoryStore.instant(rs.getTimestamp(11)));
    }

    private static int bind(PreparedStatement ps, long systemTypeId, String group) throws SQLException {
        int i = 1;
        ps.setLong(i++, systemTypeId);
        if (group != null) {
            ps.setString(i++, group);
        }
        return i;
    }

    /** A page of results and how many there are in all. */
    public record Page<T>(long total, List<T> content) {
    }

    /**
     * One system as discovered: its name, device count, devices per component, centre, and the channel all its
     * devices are in ({@code fleet}); {@code mixed} when its devices are not all in one channel.
     */
    public record SystemSummary(String system, int devices, Map<String, Integer> components, String group,
                                String fleet, boolean mixed, @JsonIgnore Long fleetId) {
    }


    /** One device of a system (or a problem device), with what it runs and how it last reported. */
    public record SystemDevice(String controllerId, String componentType, String system, String group, String problem,
                               Long installedSetId, String installedSet, Long assignedSetId, String assignedSet,
                               String updateStatus, Instant lastPollAt) {
    }

}
