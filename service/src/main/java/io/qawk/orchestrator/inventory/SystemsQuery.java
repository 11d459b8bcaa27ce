package io.qawk.orchestrator.inventory;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.apidoc.Nullable;
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

/**
 * Answers what systems the devices form, from the inventory in Postgres; never waits for hawkBit.
 * <p>One class: the listing, its filters and the census read the same discovered-system rows with the same SQL.
 */
@ApplicationScoped
public class SystemsQuery {

    private static final TypeReference<Map<String, Integer>> COUNTS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, List<String>>> VERSIONS = new TypeReference<>() {
    };

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    /** A page of systems with the type's count of problem devices; empty when the type does not exist. */
    public record Listing(Page<SystemSummary> page, long problemDevices) {
    }

    /**
     * Which systems a listing shows: one centre ({@code group}), only those fully on a manifest ({@code on}), only those
     * not on one ({@code off}), only those breaking a rule ({@code broken}); null or false: no such filter.
     * {@code manifests} are the type's, to say which one each system is on.
     */
    public record Filter(String group, ManifestTargets.Target on, ManifestTargets.Target off, boolean broken,
                         List<ManifestTargets.Target> manifests, String system) {

        public Filter(String group, ManifestTargets.Target on, ManifestTargets.Target off, boolean broken,
                      List<ManifestTargets.Target> manifests) {
            this(group, on, off, broken, manifests, null);
        }

        public static Filter group(String group) {
            return new Filter(group, null, null, false, List.of());
        }

        /** Only the system of this name. */
        Filter named(String name) {
            return new Filter(group, on, off, broken, manifests, name);
        }

        boolean narrowsBeyondGroup() {
            return on != null || off != null || broken || system != null;
        }
    }

    /** {@link #systems} and the problem count in one transaction; empty when there is no such system type. */
    @Transactional
    public Optional<Listing> listing(long systemTypeId, Filter filter, int offset, int limit) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select (select count(*) from system_member m"
                     + " where m.system_type_id = t.id and m.problem is not null) from system_type t where t.id = ?")) {
            ps.setLong(1, systemTypeId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long problems = rs.getLong(1);
                return Optional.of(new Listing(systems(c, systemTypeId, filter, offset, limit), problems));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the systems", e);
        }
    }

    /** One page of a type's systems, sorted by name, optionally only those of one centre. */
    @Transactional
    public Page<SystemSummary> systems(long systemTypeId, String group, int offset, int limit) {
        try (Connection c = dataSource.getConnection()) {
            return systems(c, systemTypeId, Filter.group(group), offset, limit);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the systems", e);
        }
    }

    private Page<SystemSummary> systems(Connection c, long systemTypeId, Filter filter, int offset, int limit)
            throws SQLException {
        List<Object> params = new ArrayList<>();
        params.add(systemTypeId);
        StringBuilder where = new StringBuilder("s.system_type_id = ?");
        if (filter.group() != null) {
            where.append(" and s.group_name = ?");
            params.add(filter.group());
        }
        if (filter.on() != null) {
            where.append(" and ").append(onManifest(filter.on(), params));
        }
        if (filter.off() != null) {
            where.append(" and not ").append(onManifest(filter.off(), params));
        }
        if (filter.broken()) {
            where.append(" and s.broken is not null");
        }
        if (filter.system() != null) {
            where.append(" and s.system_name = ?");
            params.add(filter.system());
        }
        try {
            long total;
            // the unfiltered total (and per centre) is kept by the sync; a filtered one is counted
            String count = filter.narrowsBeyondGroup()
                    ? "select count(*) from discovered_system s where " + where
                    : "select coalesce(sum(s.systems), 0) from discovered_count s where " + where;
            try (PreparedStatement ps = c.prepareStatement(count)) {
                bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    total = rs.getLong(1);
                }
            }
            List<SystemSummary> content = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "select s.system_name, s.devices, s.components, s.group_name, f.name, s.mixed, s.fleet_id,"
                            + " s.versions, s.broken_rule, s.broken"
                            + " from discovered_system s left join fleet f on f.id = s.fleet_id where " + where
                            + " order by s.system_name offset ? limit ?")) {
                int i = bind(ps, params);
                ps.setInt(i++, offset);
                ps.setInt(i, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Integer> components = new TreeMap<>(json.readValue(rs.getString(3), COUNTS));
                        Map<String, List<String>> versions = new TreeMap<>(json.readValue(rs.getString(8), VERSIONS));
                        Integer rule = rs.getObject(9) == null ? null : rs.getInt(9);
                        content.add(new SystemSummary(rs.getString(1), rs.getInt(2), components, rs.getString(4),
                                rs.getString(5), rs.getBoolean(6), InventoryStore.longOrNull(rs, 7), versions,
                                OnManifest.of(filter.manifests(), versions),
                                rule == null ? null : new Broken(rule, rs.getString(10))));
                    }
                }
            }
            return new Page<>(total, content);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable components of a discovered system", e);
        }
    }

    /**
     * The condition "fully on this manifest" over {@code s.versions}: every component the manifest names runs only its
     * set, or is absent, and at least one is present.
     */
    static String onManifest(ManifestTargets.Target m, List<Object> params) {
        List<String> each = new ArrayList<>();
        List<String> present = new ArrayList<>();
        for (Map.Entry<String, String> e : m.sets().entrySet()) {
            String only = "[" + jsonString(e.getValue()) + "]";
            each.add("coalesce(s.versions -> cast(? as text), cast(? as jsonb)) = cast(? as jsonb)");
            params.add(e.getKey());
            params.add(only);
            params.add(only);
        }
        for (String component : m.sets().keySet()) {
            present.add("s.versions -> cast(? as text) is not null");
            params.add(component);
        }
        return "(" + String.join(" and ", each) + " and (" + String.join(" or ", present) + "))";
    }

    private static String jsonString(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch < 0x20) {
                out.append(String.format("\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        return out.append('"').toString();
    }

    private static int bind(PreparedStatement ps, List<Object> params) throws SQLException {
        int i = 1;
        for (Object p : params) {
            if (p instanceof Long l) {
                ps.setLong(i++, l);
            } else {
                ps.setString(i++, (String) p);
            }
        }
        return i;
    }

    /** One system as the listing shows it; empty when the type has no such system. */
    @Transactional
    public Optional<SystemSummary> summary(long systemTypeId, String system,
                                                     List<ManifestTargets.Target> manifests) {
        try (Connection c = dataSource.getConnection()) {
            List<SystemSummary> found = systems(c, systemTypeId, new Filter(null, null, null, false, manifests)
                    .named(system), 0, 1).content();
            return found.stream().findFirst();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the system", e);
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

    /** A page of results and how many there are in all. */
    public record Page<T>(long total, List<T> content) {
    }

    /**
     * One system as discovered: its name, device count, devices per component, centre, and the channel all its
     * devices are in ({@code channel}, JSON {@code fleet}); {@code mixed} when its devices are not all in one channel.
     */
    public record SystemSummary(String system, int devices, Map<String, Integer> components, String group,
                                @JsonProperty("fleet") String channel, boolean mixed, @JsonIgnore Long channelId,
                                Map<String, List<@Nullable String>> versions, OnManifest on, Broken broken) {

        /** The configuration identity of what it runs ({@link ConfigurationId}), as the census names its mix. */
        @JsonProperty("configurationId")
        public String configurationId() {
            return versions == null ? null : ConfigurationId.of(versions);
        }
    }

    /**
     * The manifest a system is fully on (null when none): of several, the one naming the most components, then the
     * first by name; {@code revision} null when the manifest was edited since its last deployment.
     */
    public record OnManifest(long manifestId, String name, Integer revision) {

        static OnManifest of(List<ManifestTargets.Target> manifests, Map<String, List<String>> versions) {
            ManifestTargets.Target best = null;
            for (ManifestTargets.Target m : manifests) {
                if (m.heldBy(versions) && (best == null || m.sets().size() > best.sets().size())) {
                    best = m;
                }
            }
            return best == null ? null : new OnManifest(best.id(), best.name(), best.revision());
        }
    }

    /** The compatibility rule a system's mix breaks ({@code rules[rule]}), and the words naming devices and sets. */
    public record Broken(int rule, String reason) {
    }


    /** One device of a system (or a problem device), with what it runs and how it last reported. */
    public record SystemDevice(String controllerId, String componentType, String system, String group, String problem,
                               Long installedSetId, String installedSet, Long assignedSetId, String assignedSet,
                               String updateStatus, Instant lastPollAt) {
    }

}
