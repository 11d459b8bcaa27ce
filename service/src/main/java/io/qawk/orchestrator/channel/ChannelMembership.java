package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.inventory.InventoryConfig;
import io.qawk.orchestrator.inventory.InventoryContributor;
import io.qawk.orchestrator.inventory.InventoryStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps which targets each channel's query matches, with every inventory sync. A target matched by two channels is
 * a conflict: it counts as in neither, so no channel ever updates it, and its system shows as mixed.
 */
@ApplicationScoped
public class ChannelMembership implements InventoryContributor {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DataSource dataSource;

    @Inject
    InventoryConfig inventory;

    @Override
    public int refresh() {
        List<Channel> channels = QuarkusTransaction.requiringNew().call(() -> Channel.<Channel>listAll());
        Map<Long, List<String>> members = new LinkedHashMap<>();
        Map<String, Integer> count = new HashMap<>();
        int requests = 0;
        for (Channel f : channels) {
            List<String> ids = hawkbit.targets(f.match).stream().map(HawkbitTarget::controllerId).toList();
            requests += Math.max(1, (ids.size() + 499) / 500);
            members.put(f.id, ids);
            ids.forEach(id -> count.merge(id, 1, Integer::sum));
        }
        QuarkusTransaction.requiringNew().timeout(InventoryStore.timeoutSeconds(inventory)).run(() -> store(members, count));
        return requests;
    }

    private void store(Map<Long, List<String>> members, Map<String, Integer> count) {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("delete from fleet_member")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "insert into fleet_member (fleet_id, controller_id, conflict) values (?, ?, ?)")) {
                int n = 0;
                for (Map.Entry<Long, List<String>> e : members.entrySet()) {
                    for (String id : e.getValue()) {
                        ps.setLong(1, e.getKey());
                        ps.setString(2, id);
                        ps.setBoolean(3, count.get(id) > 1);
                        ps.addBatch();
                        if (++n % 1000 == 0) {
                            ps.executeBatch();
                        }
                    }
                }
                ps.executeBatch();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store channel membership", e);
        }
    }
}
