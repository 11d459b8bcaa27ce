package io.qawk.orchestrator.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.rules.Breach;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.SystemState;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Marks the systems whose mix of sets breaks their type's compatibility rules ({@code discovered_system.broken}, with
 * the rule and words naming a device of each side), after every inventory sync and whenever a type's rules change.
 * Nothing is done to such a system: it is only told. Rules are judged once per distinct mix, then per device only
 * for the systems of a broken mix, so a fleet on few mixes costs few evaluations.
 */
@ApplicationScoped
public class Drift {

    static final TypeReference<LinkedHashMap<String, List<String>>> VERSIONS = new TypeReference<>() {
    };
    private static final int MAX_WORDS = 2000;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    /** A type's rules changed (or it was created): its systems are judged again now, without waiting for a sync. */
    void typeChanged(@Observes SystemTypeService.SystemTypeChanged changed) {
        SystemType type = SystemType.findById(changed.systemTypeId());
        if (type == null) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            mark(c, type.id, type.compatibility());
        } catch (SQLException e) {
            throw new IllegalStateException("Could not judge the systems against the rules", e);
        }
    }

    /**
     * Judges every system of the type against the rules, then counts the type's mixes ({@code discovered_mix}), on the
     * caller's connection (and transaction).
     */
    void mark(Connection c, long systemTypeId, CompatibilityRules rules) throws SQLException {
        judge(c, systemTypeId, rules);
        try (PreparedStatement ps = c.prepareStatement("delete from discovered_mix where system_type_id = ?")) {
            ps.setLong(1, systemTypeId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into discovered_mix (system_type_id, versions, systems,"
                + " broken) select system_type_id, versions, count(*), count(*) filter (where broken is not null)"
                + " from discovered_system where system_type_id = ? group by system_type_id, versions")) {
            ps.setLong(1, systemTypeId);
            ps.executeUpdate();
        }
    }

    private void judge(Connection c, long systemTypeId, CompatibilityRules rules) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update discovered_system set broken = null, broken_rule = null"
                + " where system_type_id = ? and broken is not null")) {
            ps.setLong(1, systemTypeId);
            ps.executeUpdate();
        }
        if (rules.isEmpty()) {
            return;
        }
        List<String> brokenMixes = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select versions::text from discovered_system"
                + " where system_type_id = ? group by versions")) {
            ps.setLong(1, systemTypeId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rules.firstBreach(SystemState.ofSets(versions(rs.getString(1)))).isPresent()) {
                        brokenMixes.add(rs.getString(1));
                    }
                }
            }
        }
        if (brokenMixes.isEmpty()) {
            return;
        }
        Map<String, SystemState> states = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select s.system_name, m.component_type, m.controller_id,"
                + " d.installed_set from discovered_system s"
                + " join system_member m on m.system_type_id = s.system_type_id and m.system_name = s.system_name"
                + " join device d on d.controller_id = m.controller_id"
                + " where s.system_type_id = ? and m.problem is null and s.versions = any(cast(? as jsonb[]))"
                + " order by s.system_name, m.component_type, m.controller_id")) {
            ps.setLong(1, systemTypeId);
            ps.setArray(2, c.createArrayOf("varchar", brokenMixes.toArray()));
            ps.setFetchSize(2000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String system = rs.getString(1);
                    states.put(system, states.getOrDefault(system, SystemState.empty())
                            .with(rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        }
        List<String> names = new ArrayList<>();
        List<Integer> ruleIndexes = new ArrayList<>();
        List<String> words = new ArrayList<>();
        states.forEach((system, state) -> {
            Optional<Breach> b = rules.firstBreach(state);
            if (b.isPresent()) {
                names.add(system);
                ruleIndexes.add(b.get().rule());
                String w = b.get().words();
                words.add(w.length() > MAX_WORDS ? w.substring(0, MAX_WORDS - 1) + "…" : w);
            }
        });
        try (PreparedStatement ps = c.prepareStatement("update discovered_system s set broken_rule = u.rule,"
                + " broken = u.words from unnest(?::varchar[], ?::int[], ?::varchar[]) u(name, rule, words)"
                + " where s.system_type_id = ? and s.system_name = u.name")) {
            ps.setArray(1, c.createArrayOf("varchar", names.toArray(new String[0])));
            ps.setArray(2, c.createArrayOf("int4", ruleIndexes.toArray(new Integer[0])));
            ps.setArray(3, c.createArrayOf("varchar", words.toArray(new String[0])));
            ps.setLong(4, systemTypeId);
            ps.executeUpdate();
        }
    }

    Map<String, List<String>> versions(String text) {
        try {
            return json.readValue(text, VERSIONS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Unreadable versions of a discovered system", e);
        }
    }
}
