package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.common.Lists;
import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.RunScheduler;
import io.qawk.orchestrator.deployment.plan.SystemPath;
import io.qawk.orchestrator.deployment.store.SystemRunWriter;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.SystemType;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether a pending system may be started at this moment, asked just before it would start (and by the plan):
 * <ul>
 * <li>another deployment drives it (a run of it, or of a system sharing one of its devices, is under way): it waits
 *     until that run ended — one system, one driver;</li>
 * <li>a channel's deployment starts a system only while it is whole in the channel: a mixed system stays pending;</li>
 * <li>a system none of whose devices is in the inventory any more has vanished (the scheduler gives it up, never
 *     counted as updated);</li>
 * <li>a system whose way to the manifest, from what its devices run now (the inventory's installed sets), would
 *     break one of its type's compatibility rules is held ({@link SystemPath}): it stays pending, with the device,
 *     its set and the rule in its reason, and starts when what it runs changes so that its way keeps the rules.</li>
 * </ul>
 * A halted release is the scheduler's business (it still starts systems taken again); {@link #halted} tells it.
 * Reads Postgres only (the inventory and the runs), inside the caller's transaction. The unique index
 * {@code system_run_one_driver} stays the referee between replicas; this is what lets the loser wait with a reason.
 */
@ApplicationScoped
public class StartGate {

    /** Under way, or about to go back by hand: the runs that drive their system. */
    public static final String DRIVING = RunState.drivesSql("r");

    @Inject
    Instance<ReleaseHalts> halts;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    SystemsQuery systems;

    /**
     * Why a system does not start now; {@code vanished} when none of its devices is in the inventory any more;
     * {@code held} when its way breaks a rule.
     */
    public record Verdict(String reason, boolean vanished, boolean held) {
        public Verdict(String reason, boolean vanished) {
            this(reason, vanished, false);
        }
    }

    /** Names per query: each is bound twice in one statement, far below Postgres' 32,767 parameters. */
    public static final int NAMES_PER_QUERY = 1000;

    /** The systems of {@code names} that may not start now, with why; the others are absent from the map. */
    public Map<String, Verdict> check(SystemDeployment d, long systemTypeId, Collection<String> names) {
        Map<String, Verdict> out = new LinkedHashMap<>();
        for (List<String> chunk : Lists.chunks(List.copyOf(names), NAMES_PER_QUERY)) {
            checkChunk(d, systemTypeId, chunk, out);
        }
        return out;
    }

    private void checkChunk(SystemDeployment d, long systemTypeId, List<String> list, Map<String, Verdict> out) {
        Map<String, List<Object[]>> devices = new LinkedHashMap<>();
        for (Object[] row : rows("select m.system_name, m.controller_id,"
                + " bool_or(fm.fleet_id = :fleet and not fm.conflict) as in_fleet,"
                + " string_agg(distinct f.name, ', ') as fleets"
                + " from system_member m left join fleet_member fm on fm.controller_id = m.controller_id"
                + " left join fleet f on f.id = fm.fleet_id"
                + " where m.system_type_id = :type and m.problem is null and m.system_name in (:names)"
                + " group by m.system_name, m.controller_id order by m.system_name, m.controller_id",
                Map.of("fleet", d.channelId == null ? -1L : d.channelId, "type", systemTypeId, "names", list))) {
            devices.computeIfAbsent((String) row[0], k -> new ArrayList<>()).add(row);
        }
        driversOf(systemTypeId, list, d.id, NO_CHANNEL, false).forEach((name, driver) ->
                out.putIfAbsent(name, new Verdict(waitingFor(driver.name(), driver.deploymentId()), false)));
        for (String name : list) {
            List<Object[]> own = devices.get(name);
            if (own == null) {
                out.putIfAbsent(name, new Verdict(RunScheduler.Start.GIVEN_UP, true));
            } else if (d.channelId != null) {
                TreeMap<String, String> outside = new TreeMap<>();
                for (Object[] dev : own) {
                    if (!Boolean.TRUE.equals(dev[2])) {
                        outside.put((String) dev[1], dev[3] == null ? "no channel" : (String) dev[3]);
                    }
                }
                if (outside.size() == own.size()) {
                    out.putIfAbsent(name, new Verdict("its devices are not in the deployment's channel", false));
                } else if (!outside.isEmpty()) {
                    Map.Entry<String, String> first = outside.firstEntry();
                    out.putIfAbsent(name, new Verdict("mixed: " + first.getKey() + " is in " + first.getValue()
                            + (outside.size() > 1 ? " (and " + (outside.size() - 1) + " more device(s) outside the channel)" : ""), false));
                }
            }
        }
        List<String> free = list.stream().filter(name -> !out.containsKey(name)).toList();
        paths(d, systemTypeId, free).forEach((name, path) -> {
            if (path.isHeld()) {
                out.put(name, new Verdict(path.heldWords(name), false, true));
            }
        });
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
     * way, by the gate's own definition ({@link #DRIVING}, by system or by a shared device); with
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

    /**
     * The first candidates in sequence are asked of this gate (held by another deployment? whole in the
     * channel? still there?) until {@code slots} free ones are found: those that may not start, as read (not locked),
     * each with the gate's verdict. What becomes of them is {@link RunScheduler#hold}'s to say.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Map<SystemRun, Verdict> holdBack(SystemDeployment d, List<DeploymentPhase.RunSummary> candidates, int slots) {
        Map<SystemRun, Verdict> out = new LinkedHashMap<>();
        int free = 0;
        for (List<DeploymentPhase.RunSummary> chunk : Lists.chunks(candidates,
                Math.min(Math.max(2 * slots, 100), NAMES_PER_QUERY))) {
            // read as plain rows: most start, and are only looked at
            List<SystemRun> checked = runWriter.read(chunk.stream().map(DeploymentPhase.RunSummary::id).toList());
            Map<String, Verdict> verdicts = check(d, systemTypeOf(checked),
                    checked.stream().map(r -> r.system).toList());
            for (SystemRun read : checked) {
                Verdict v = verdicts.get(read.system);
                if (v == null) {
                    free++;
                } else {
                    out.put(read, v);
                }
            }
            if (free >= slots) {
                break;
            }
        }
        return out;
    }

    private static long systemTypeOf(List<SystemRun> runs) {
        return runs.isEmpty() ? -1 : runs.get(0).systemTypeId;
    }

    public static final String HALTED = "waiting: the channel's release is halted; resume it on the channel";

    /** Whether the channel release this deployment belongs to is halted. */
    public boolean halted(SystemDeployment d) {
        return d.channelId != null && halts.isResolvable() && halts.get().halted(d.id);
    }

    static String waitingFor(String deployment, long id) {
        return "waiting for deployment \"" + deployment + "\" (#" + id + ") to finish with this system";
    }

    @SuppressWarnings("unchecked")
    private static List<Object[]> rows(String sql, Map<String, Object> params) {
        var q = Panache.getEntityManager().createNativeQuery(sql);
        params.forEach(q::setParameter);
        return (List<Object[]>) q.getResultList();
    }
}
