package io.qawk.orchestrator.channel;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which members of a channel are standalone, and which are problems. A device that matches a component of some system
 * type but forms no system (it reports no system key, or it matches two components) is nobody's standalone device:
 * it gets neither half of a release until someone fixes it, and the channel lists it. Devices in two channels (a
 * conflict) count in neither, as before.
 */
@ApplicationScoped
public class ChannelProblems {

    /** How many problem devices a channel lists; the count is always complete. */
    static final int LISTED = 100;

    /** Members not in conflict. */
    private static final String MEMBERS = "from fleet_member fm where fm.fleet_id = ? and not fm.conflict";

    /** …that no system type's component matches at all. */
    private static final String STANDALONE = MEMBERS
            + " and not exists (select 1 from system_member m where m.controller_id = fm.controller_id)";

    /** …that a component matches but no system claims. */
    private static final String PROBLEM = " and exists (select 1 from system_member m where m.controller_id = fm.controller_id"
            + " and m.problem is not null) and not exists (select 1 from system_member s"
            + " where s.controller_id = fm.controller_id and s.problem is null)";

    @Inject
    DataSource dataSource;

    /** A member of the channel that forms no system, with the first system type (by id) it is a problem of. */
    public record ProblemDevice(String controllerId, long systemTypeId, String systemType, String componentType,
                                String problem, String why) {
    }

    /** All of a channel's problem devices counted, the first {@value #LISTED} by controller id listed. */
    public record Listing(int total, List<ProblemDevice> devices) {
    }

    /** The channel's standalone members: the devices its release's set goes to. */
    public Set<String> standaloneMembers(long channelId) {
        Set<String> out = new HashSet<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select fm.controller_id " + STANDALONE)) {
            ps.setLong(1, channelId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the channel's members", e);
        }
        return out;
    }

    public Listing of(long channelId) {
        try (Connection c = dataSource.getConnection()) {
            int total;
            try (PreparedStatement ps = c.prepareStatement("select count(*) " + MEMBERS + PROBLEM)) {
                ps.setLong(1, channelId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    total = rs.getInt(1);
                }
            }
            List<ProblemDevice> devices = new ArrayList<>();
            if (total > 0) {
                try (PreparedStatement ps = c.prepareStatement("select distinct on (fm.controller_id) fm.controller_id,"
                        + " m.system_type_id, t.name, m.component_type, m.problem, t.system_key"
                        + " from fleet_member fm join system_member m on m.controller_id = fm.controller_id"
                        + " and m.problem is not null join system_type t on t.id = m.system_type_id"
                        + " where fm.fleet_id = ? and not fm.conflict and not exists (select 1 from system_member s"
                        + " where s.controller_id = fm.controller_id and s.problem is null)"
                        + " order by fm.controller_id, m.system_type_id limit " + LISTED)) {
                    ps.setLong(1, channelId);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            devices.add(new ProblemDevice(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                                    rs.getString(5), why(rs.getString(5), rs.getString(3), rs.getString(4), rs.getString(6))));
                        }
                    }
                }
            }
            return new Listing(total, devices);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the channel's problem devices", e);
        }
    }

    /** Said for the operator who has to fix the device. */
    static String why(String problem, String systemType, String componentType, String systemKey) {
        return switch (problem) {
            case "NO_SYSTEM_KEY" -> "matches component '" + componentType + "' of '" + systemType + "' but has no "
                    + systemKey + ", so it is in no system; it gets nothing from a release until it has one";
            case "AMBIGUOUS_COMPONENT" -> "matches more than one component of '" + systemType + "' (" + componentType
                    + "); it gets nothing from a release until it matches one";
            default -> "forms no system of '" + systemType + "' (" + problem + ")";
        };
    }
}
