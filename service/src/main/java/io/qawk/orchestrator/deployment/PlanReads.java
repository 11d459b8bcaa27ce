package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.StartRules;
import io.qawk.orchestrator.deployment.plan.SystemPath;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.deployment.store.StartReads;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.qawk.orchestrator.window.CentreWindows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a deployment will do (before start) or is doing: per system in scope, which device gets which set at which
 * order and which already run it; and which systems are out of scope and why. Read from the inventory, so it does
 * not wait for hawkBit; a started system shows its photograph instead. The API maps it as it is; its reads are
 * a fixed number of queries, whatever the number of systems started.
 */
@ApplicationScoped
public class PlanReads {

    @Inject
    DeploymentService deployments;

    @Inject
    DeploymentScope scope;

    @Inject
    SystemsQuery systems;

    @Inject
    StartReads starts;

    @Inject
    RunRepository repository;

    @Inject
    DeploymentOverlaps overlaps;

    @Inject
    Clock clock;

    /**
     * The whole plan; {@code windows}: each centre in scope, its maintenance window now (empty without windows);
     * {@code unknown}: the systems and centres the deployment names that no system of the manifest's type has, and
     * {@code unknownNames} the same with the field, the words and the one close name there is; {@code overlaps}: the
     * systems not started here that another deployment drives (or has pending, started earlier), and who, with
     * {@code overlapsSummary} saying it in a sentence per driver (null when none).
     */
    public record Plan(long deploymentId, String manifest, List<Integer> orders, List<SystemPlan> systems,
                       List<DeploymentScope.OutOfScope> outOfScope, List<CentreWindows.CentreWindow> windows,
                       List<String> unknown, List<DeploymentScope.UnknownName> unknownNames,
                       List<ChannelDeployments.Overlap> overlaps, String overlapsSummary) {
    }

    /**
     * One system: its devices, and whether this comes from its photograph or from the inventory; {@code waiting} says
     * why a system not yet started would not start now (its centre's window is closed, another deployment drives it,
     * it is mixed, it is held, …); {@code held}: its way to the manifest would break a compatibility rule (the
     * reason is in {@code waiting}); {@code mends}: it breaks a rule now, and this manifest mends it, so it is taken.
     */
    public record SystemPlan(String system, String group, RunState state, boolean photographed, String waiting,
                             List<DevicePlan> devices, boolean held, String mends) {
    }

    /** One device: at which order it gets which set, and whether it already runs it. */
    public record DevicePlan(String controllerId, String componentType, int order, String runs, String gets,
                             boolean alreadyOnIt) {
    }

    @Transactional
    public Plan plan(long deploymentId) {
        SystemDeployment d = deployments.get(deploymentId);
        Manifest m = d.manifest();
        List<SystemRun> started = SystemRun.ofDeployment(deploymentId);
        Map<String, SystemRun> runs = started.stream().collect(Collectors.toMap(r -> r.system, Function.identity()));
        Map<Long, List<RunDevice>> photos = started.isEmpty() ? Map.of() : repository.devicesOfDeployment(deploymentId);
        List<SystemPlan> out = new ArrayList<>();
        List<DeploymentScope.InScope> inScope = d.phase.beforeStart() ? scope.inScope(d, m)
                : started.stream().map(r -> new DeploymentScope.InScope(r.system, r.group)).toList();
        List<String> notStarted = inScope.stream()
                .filter(s -> runs.get(s.system()) == null || runs.get(s.system()).state == RunState.PENDING)
                .map(DeploymentScope.InScope::system).toList();
        // the start rules the engine keeps, asked of the same reads: the preview says what the engine will do
        Map<String, StartRules.Verdict> waiting = starts.verdicts(d, m.systemTypeId, notStarted);
        Map<String, SystemPath.Verdict> paths = starts.paths(d, m.systemTypeId, notStarted);
        boolean halted = starts.halted(d);
        CentreWindows windows = CentreWindows.of(d.windows, clock.instant());
        for (DeploymentScope.InScope s : inScope) {
            SystemRun run = runs.get(s.system());
            String closed = run == null || run.state == RunState.PENDING ? windows.waitingReason(s.group()) : null;
            String why = closed != null ? closed : waiting.containsKey(s.system()) ? waiting.get(s.system()).reason()
                    : halted && (run == null || run.state == RunState.PENDING && run.attempt == 1) ? StartRules.HALTED : null;
            List<RunDevice> photo = run == null ? List.of() : photos.getOrDefault(run.id, List.of());
            if (!photo.isEmpty()) {
                out.add(new SystemPlan(s.system(), s.group(), run.state, true, null, photo.stream().map(p -> new DevicePlan(
                        p.controllerId, p.componentType, p.order, p.fromSet, p.toSet,
                        p.fromSetId != null && p.fromSetId == p.toSetId)).toList(), false, null));
                continue;
            }
            List<DevicePlan> devices = new ArrayList<>();
            for (SystemsQuery.SystemDevice dev : systems.devices(m.systemTypeId, s.system())) {
                Optional<ManifestComponent> c = m.component(dev.componentType());
                c.ifPresent(component -> devices.add(new DevicePlan(dev.controllerId(), dev.componentType(), component.order,
                        dev.installedSet(), component.distributionSet,
                        Objects.equals(dev.installedSetId(), component.distributionSetId))));
            }
            devices.sort(Comparator.comparingInt(DevicePlan::order).thenComparing(DevicePlan::controllerId));
            SystemPath.Verdict path = paths.getOrDefault(s.system(), SystemPath.Verdict.CLEAR);
            out.add(new SystemPlan(s.system(), s.group(), run == null ? null : run.state, false, why, devices,
                    path.isHeld(), path.mendsWords()));
        }
        List<DeploymentScope.OutOfScope> excluded = d.phase.beforeStart() ? scope.outOfScope(d, m) : List.of();
        List<CentreWindows.CentreWindow> centres = !windows.any() ? List.of() : inScope.stream()
                .map(DeploymentScope.InScope::group).collect(Collectors.toCollection(LinkedHashSet::new))
                .stream().map(windows::state).toList();
        List<DeploymentScope.UnknownName> unknown = scope.unknownNames(d, m);
        List<ChannelDeployments.Overlap> shared = d.phase.ended() || d.phase == DeploymentPhase.ABORTING ? List.of()
                : overlaps.of(d, m.systemTypeId, notStarted);
        return new Plan(d.id, m.name, m.orders(), out, excluded, centres,
                unknown.stream().map(DeploymentScope.UnknownName::name).toList(), unknown,
                shared, DeploymentOverlaps.summary(shared));
    }
}
