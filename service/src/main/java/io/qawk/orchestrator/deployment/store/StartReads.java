package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.plan.StartRules;
import io.qawk.orchestrator.deployment.plan.SystemPath;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.deployment.model.ReleaseHalts;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.SystemType;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link StartRules} decides whether a pending system may start from, read from Postgres only (the inventory,
 * the channels and the runs) inside the caller's transaction: each system's devices with their channels, who else
 * drives it, its way to the manifest, whether its channel's release is halted. The engine's start step and the plan
 * preview ask the same {@link #verdicts}, so the preview says what the engine will do. The unique index
 * {@code system_run_one_driver} stays the referee between replicas; this is what lets the loser wait with a reason.
 */
@ApplicationScoped
public class StartReads {

    /** Under way, or about to go back by hand: the runs that drive their system. */
    public static final String DRIVING = RunState.drivesSql("r");

    /** Names per query: each is bound twice in one statement, far below Postgres' 32,767 parameters. */
    public static final int NAMES_PER_QUERY = 1000;

    @Inject
    Instance<ReleaseHalts> halts;

    @Inject
    SystemsQuery systems;

    /** The systems of {@code names} that may not start now, with why ({@link StartRules}); the others are absent. */
    public Map<String, StartRules.Verdict> verdicts(SystemDeployment d, long systemTypeId, Collection<String> names) {
        Map<String, StartRules.Verdict> out = new LinkedHashMap<>();
        for (List<String> chunk : Lists.chunks(List.copyOf(names), NAMES_PER_QUERY)) {
            Map<String, StartRules.Verdict> blocked = StartRules.blocked(chunk, d.channelId != null,
                    members(d, systemTypeId, chunk), drivenBy(systemTypeId, chunk, d.id));
            out.putAll(blocked);
            List<String> free = chunk.stream().filter(name -> !blocked.containsKey(name)).toList();
            out.putAll(StartRules.held(paths(d, systemTypeId, free)));
        }
        return out;
    }

    /** Each system's devices with their channels (for a channel's deployment, whether each is in it). */
    private static Map<String, List<StartRules.Member>> members(SystemDeployment d, long systemTypeId,
                                                                List<String> names) {
        Map<String, List<StartRules.Member>> out = new LinkedHashMap<>();
        for (Object[] row : rows("select m.system_name, m.controller_id,"
                + " bool_or(fm.fleet_id = :fleet and not fm.conflict) as in_fleet,"
                + " string_agg(distinct f.name, ', ') as fleets"
                + " from system_member m left join fleet_member fm on fm.controller_id = m.controller_id"
                + " left join fleet f on f.id = fm.fleet_id"
                + " where m.system_type_id = :type and m.problem is null and m.system_name in (:names)"
                + " group by m.system_name, m.controller_id order by m.system_name, m.controller_id",
                Map.of("fleet", d.channelId == null ? -1L : d.channelId, "type", systemTypeId, "names", names))) {
            out.computeIfAbsent((String) row[0], k -> new ArrayList<>()).add(new StartRules.Member((String) row[1],
                    Boolean.TRUE.equals(row[2]), (String) row[3]));
        }
        return out;
    }

    /** The systems of {@code names} whose run under way belongs to another deployment than {@code deploymentId}. */
    private static Map<String, StartRules.DrivenBy> drivenBy(long systemTypeId, List<String> names, long deploymentId) {
        Map<String, StartRules.DrivenBy> out = new LinkedHashMap<>();
        driversOf(systemTypeId, names, deploymentId, NO_CHANNEL, false).forEach((name, driver) ->
                out.put(name, new StartRules.DrivenBy(driver.name(), driver.deploymentId())));
        return out;
    }

    /** No channel is excepted from {@link #drivers}. */
    public static final long NO_CHANNEL = -1;

    /**
     * Another deployment that drives a system, or will: {@code underWay} when a run of it (or of a system sharing one
     * of its devices) is under way there now, the one-driver rule's driver; otherwise the system is pending in that
     * deployment, which is started and not ended, and the first of the two to start it drives it.
     */
    public record Driver(String system, long deploymentId, String name, Long channelId, boolean underWay) {
    }

    /**
     * Who drives each of {@code names} (systems of the type) other than deployment {@code exceptDeployment} and the
     * deployments of channel {@code exceptChannel} ({@link #NO_CHANNEL}: none): the deployment whose run is under
     * way, by the one definition ({@link #DRIVING}, by system or by a shared device); with
     * {@code alsoPending}, for a system nobody drives now, the earliest started open deployment that has it pending.
     * Systems nobody drives are absent.
     */
    public Map<String, Driver> drivers(long systemTypeId, Collection<String> names, long exceptDeployment,
                                       long exceptChannel, boolean alsoPending) {
        Map<String, Driver> out = new LinkedHashMap<>();
        for (List<String> chunk : Lists.chunks(List.copyOf(names), NAMES_PER_QUERY)) {
            out.putAll(driversOf(systemTypeId, chunk, exceptDeployment, exceptChannel, alsoPending));
        }
        return out;
    }

    private static Map<String, Driver> driversOf(long systemTypeId, List<String> list, long exceptDeployment,
                                                 long exceptChannel, boolean alsoPending) {
        Map<String, Driver> out = new LinkedHashMap<>();
        if (list.isEmpty()) {
            return out;
        }
        Map<String, Object> params = Map.of("type", systemTypeId, "names", list, "dep", exceptDeployment,
                "channel", exceptChannel);
        String others = " and r.deployment_id <> :dep and d.fleet_id is distinct from :channel and ";
        for (Object[] row : rows("select m.system_name, d.id, d.name, d.fleet_id from system_member m"
                + " join run_device rd on rd.controller_id = m.controller_id join system_run r on r.id = rd.run_id"
                + " join system_deployment d on d.id = r.deployment_id"
                + " where m.system_type_id = :type and m.problem is null and m.system_name in (:names)"
                + others + DRIVING
                + " union select r.system_name, d.id, d.name, d.fleet_id from system_run r"
                + " join system_deployment d on d.id = r.deployment_id"
                + " where r.system_type_id = :type and r.system_name in (:names)" + others + DRIVING
                + " order by 1, 2", params)) {
            out.putIfAbsent((String) row[0], driver(row, true));
        }
        if (alsoPending) {
            for (Object[] row : rows("select r.system_name, d.id, d.name, d.fleet_id from system_run r"
                    + " join system_deployment d on d.id = r.deployment_id"
                    + " where r.system_type_id = :type and r.system_name in (:names)" + others
                    + " r.state = " + SqlEnums.literal(RunState.PENDING)
                    + " and d.phase in " + SqlEnums.list(DeploymentPhase.RUNNING, DeploymentPhase.PAUSED)
                    + " order by d.started_at, d.id", params)) {
                out.putIfAbsent((String) row[0], driver(row, false));
            }
        }
        return out;
    }

    private static Driver driver(Object[] row, boolean underWay) {
        return new Driver((String) row[0], ((Number) row[1]).longValue(), (String) row[2],
                row[3] == null ? null : ((Number) row[3]).longValue(), underWay);
    }

    /**
     * Each system's way to the deployment's manifest, judged against its type's rules from what the inventory says
     * its devices run now (empty when the type has no rules): held, clear, or taken because the manifest mends it.
     */
    public Map<String, SystemPath.Verdict> paths(SystemDeployment d, long systemTypeId, Collection<String> names) {
        SystemType type = names.isEmpty() ? null : SystemType.findById(systemTypeId);
        CompatibilityRules rules = type == null ? CompatibilityRules.none() : type.compatibility();
        if (rules.isEmpty()) {
            return Map.of();
        }
        Manifest m = d.manifest();
        Map<String, SystemPath.Verdict> out = new LinkedHashMap<>();
        systems.devicesOf(systemTypeId, names).forEach((name, devices) -> out.put(name, SystemPath.judge(rules, way(m, devices))));
        return out;
    }

    /**
     * A system's way to {@code m} as {@link SystemPath} judges it: each device with what it runs now (the inventory's
     * installed set) and, when {@code m} names its component, its order and the set it gets.
     */
    public static List<SystemPath.Device> way(Manifest m, List<SystemsQuery.SystemDevice> devices) {
        List<SystemPath.Device> way = new ArrayList<>();
        for (SystemsQuery.SystemDevice dev : devices) {
            Optional<ManifestComponent> c = m.component(dev.componentType());
            way.add(c.map(component -> new SystemPath.Device(dev.controllerId(), dev.componentType(),
                            dev.installedSet(), component.order,
                            Objects.equals(dev.installedSetId(), component.distributionSetId) ? dev.installedSet()
                                    : component.distributionSet))
                    .orElseGet(() -> new SystemPath.Device(dev.controllerId(), dev.componentType(),
                            dev.installedSet(), null, null)));
        }
        return way;
    }

    /** Whether the channel release this deployment belongs to is halted. */
    public boolean halted(SystemDeployment d) {
        return d.channelId != null && halts.isResolvable() && halts.get().halted(d.id);
    }

    @SuppressWarnings("unchecked")
    private static List<Object[]> rows(String sql, Map<String, Object> params) {
        var q = Panache.getEntityManager().createNativeQuery(sql);
        params.forEach(q::setParameter);
        return (List<Object[]>) q.getResultList();
    }
}
