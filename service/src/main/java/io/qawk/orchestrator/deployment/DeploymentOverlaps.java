package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.deployment.ChannelDeployments.DrivenBy;
import io.qawk.orchestrator.deployment.ChannelDeployments.Overlap;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.store.StartReads;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.manifest.Manifest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Overlaps between Qawk's own drivers, said before they meet: which systems of a deployment's scope (those it has
 * not started) or of a channel another deployment drives, or will. The driver is the start rules'
 * ({@link StartReads#drivers}), the one-driver rule's own answer, never a second definition. Reads Postgres only,
 * in the caller's transaction.
 */
@ApplicationScoped
public class DeploymentOverlaps {

    @Inject
    StartReads starts;

    @Inject
    DeploymentScope scope;

    @Inject
    ChannelNames channels;

    @Inject
    RunRepository runs;

    /** The overlaps of a deployment: its systems in scope while a draft, its systems not started once started. */
    public List<Overlap> of(SystemDeployment d) {
        if (d.phase.ended() || d.phase == DeploymentPhase.ABORTING) {
            return List.of();
        }
        Manifest m = d.manifest();
        if (m == null) {
            return List.of();
        }
        List<String> notStarted = d.phase.beforeStart()
                ? scope.inScope(d, m).stream().map(DeploymentScope.InScope::system).toList()
                : runs.pendingSystems(d.id);
        return of(d, m.systemTypeId, notStarted);
    }

    /** The overlaps of these systems of the deployment, which it has not started, in their order. */
    public List<Overlap> of(SystemDeployment d, long systemTypeId, Collection<String> notStarted) {
        Map<String, StartReads.Driver> drivers = starts.drivers(systemTypeId, notStarted, d.id, StartReads.NO_CHANNEL, true);
        List<Overlap> out = new ArrayList<>();
        Map<Long, Optional<String>> names = new HashMap<>();
        for (String system : notStarted) {
            StartReads.Driver driver = drivers.get(system);
            if (driver != null) {
                out.add(overlap(driver, names));
            }
        }
        return out;
    }

    /** The systems of the channel's members (as of the last sync) that a deployment of no or another channel drives. */
    public List<Overlap> ofChannel(long channelId) {
        return ofSystems(channelId, rows("select distinct m.system_type_id, m.system_name from fleet_member fm"
                + " join system_member m on m.controller_id = fm.controller_id"
                + " where fm.fleet_id = :channel and m.problem is null order by 1, 2", Map.of("channel", channelId)));
    }

    /**
     * The same for the systems of these devices (what the channel's query matches in hawkBit now, before a sync has
     * stored it as the channel's members).
     */
    public List<Overlap> ofChannel(long channelId, Collection<String> controllerIds) {
        List<Object[]> systems = new ArrayList<>();
        for (List<String> chunk : Lists.chunks(List.copyOf(controllerIds), StartReads.NAMES_PER_QUERY)) {
            systems.addAll(rows("select distinct m.system_type_id, m.system_name from system_member m"
                    + " where m.controller_id in (:ids) and m.problem is null", Map.of("ids", chunk)));
        }
        return ofSystems(channelId, systems);
    }

    private List<Overlap> ofSystems(long channelId, List<Object[]> typeAndName) {
        Map<Long, SortedSet<String>> byType = new TreeMap<>();
        for (Object[] row : typeAndName) {
            byType.computeIfAbsent(((Number) row[0]).longValue(), k -> new TreeSet<>()).add((String) row[1]);
        }
        List<Overlap> out = new ArrayList<>();
        Map<Long, Optional<String>> names = new HashMap<>();
        byType.forEach((type, systems) -> {
            Map<String, StartReads.Driver> drivers = starts.drivers(type, systems, -1, channelId, true);
            systems.stream().map(drivers::get).filter(Objects::nonNull)
                    .forEach(driver -> out.add(overlap(driver, names)));
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Object[]> rows(String sql, Map<String, Object> params) {
        var q = SystemDeployment.getEntityManager().createNativeQuery(sql);
        params.forEach(q::setParameter);
        return (List<Object[]>) q.getResultList();
    }

    private Overlap overlap(StartReads.Driver driver, Map<Long, Optional<String>> names) {
        String channel = driver.channelId() == null ? null
                : names.computeIfAbsent(driver.channelId(), channels::name).orElse(null);
        DrivenBy by = new DrivenBy(driver.deploymentId(), driver.name(), driver.channelId(), channel);
        return new Overlap(driver.system(), by, driver.underWay(), driver.underWay()
                ? "driven by " + deployment(by) + " until it is done with this system"
                : "pending in " + deployment(by) + " too: the first to start it drives it, the other waits");
    }

    /** {@code deployment "2.0 to c01" (#1)}, with {@code of channel beta} for a channel's. */
    static String deployment(DrivenBy by) {
        return "deployment \"" + by.name() + "\" (#" + by.deploymentId() + ")"
                + (by.channel() == null ? "" : " of channel " + by.channel());
    }

    /**
     * The overlaps in one sentence per driver, null when there are none: {@code 2 systems are driven by deployment
     * "2.0 to c01" (#1): they wait for it}; a channel's: {@code 1 system of this channel is driven by deployment
     * "beta 2.0" (#3) of channel beta: a release here takes it once that one is done with it}.
     */
    static String summary(List<Overlap> overlaps, boolean ofChannel) {
        if (overlaps.isEmpty()) {
            return null;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        Map<String, Overlap> firsts = new LinkedHashMap<>();
        for (Overlap o : overlaps) {
            String key = o.underWay() + "/" + o.drivenBy().deploymentId();
            counts.merge(key, 1, Integer::sum);
            firsts.putIfAbsent(key, o);
        }
        List<String> parts = new ArrayList<>();
        firsts.forEach((key, o) -> {
            int n = counts.get(key);
            String systems = n == 1 ? "1 system" + (ofChannel ? " of this channel" : "") + " is"
                    : n + " systems" + (ofChannel ? " of this channel" : "") + " are";
            String they = n == 1 ? "it" : "they";
            String them = n == 1 ? "it" : "them";
            if (o.underWay()) {
                parts.add(systems + " driven by " + deployment(o.drivenBy()) + ": "
                        + (ofChannel ? "a release here takes " + them + " once that one is done with " + them
                        : they + " wait" + (n == 1 ? "s" : "") + " for it"));
            } else {
                parts.add(systems + " also pending in " + deployment(o.drivenBy())
                        + ": the first to start " + (n == 1 ? "it" : "each") + " drives it");
            }
        });
        return String.join("; ", parts);
    }

    /** A deployment's overlaps in one sentence, null when there are none. */
    public static String summary(List<Overlap> overlaps) {
        return summary(overlaps, false);
    }
}
