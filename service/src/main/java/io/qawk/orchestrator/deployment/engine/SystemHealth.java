package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.analysis.MetricGates;
import io.qawk.orchestrator.analysis.Verdict;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.plan.Health;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place where "is this soaking system still healthy?" is decided, once per pass for every soaking system of a
 * deployment. A system is unhealthy when any of its devices does not match its component's health query (asked of
 * hawkBit in bulk by {@link DeviceVerifier}), when the deployment's metric gate fails for it (Prometheus gave a number
 * that misses the condition; the reason carries the value); a gate that cannot tell (Prometheus away, no data) makes
 * the verdict unknown (the soak neither ends nor fails). hawkBit that cannot be asked is not a verdict:
 * the exception reaches the engine, which counts the time as not observed and extends the soak by it.
 */
@ApplicationScoped
public class SystemHealth {

    @Inject
    DeviceVerifier verifier;

    @Inject
    MetricGates metricGates;

    /** A system in its soak: run, deployment, system type and name, its centre (or null), the soak's span, its devices. */
    record Soaking(long runId, long deploymentId, long systemTypeId, String system, String centre, Instant startedAt,
                   Instant endsAt, List<SoakDevice> devices) {
    }

    /** A device of a soaking system; {@code health}: its component's health query, or null. */
    record SoakDevice(String controllerId, String componentType, String health) {
    }

    /** The soaking runs of a pass, as they are judged: their devices on their sets, with their health queries. */
    static List<Soaking> soaking(DeploymentSnapshot snap) {
        List<Soaking> out = new ArrayList<>();
        for (DeploymentSnapshot.PlannableRun run : snap.runsToPlan()) {
            if (run.state() != RunState.VERIFYING) {
                continue;
            }
            List<SoakDevice> devices = run.devices().stream()
                    .filter(d -> d.state() == DeviceState.SUCCEEDED || d.state() == DeviceState.ALREADY_ON_SET)
                    .map(d -> new SoakDevice(d.controllerId(), run.componentOf().get(d.controllerId()),
                            d.health()))
                    .toList();
            out.add(new Soaking(run.id(), snap.deploymentId(), run.systemTypeId(), run.system(),
                    run.group(), run.soakStartedAt(), run.soakEndsAt(), devices));
        }
        return out;
    }

    /** Each system's verdict by run id (every system given has one); {@code metricGate}: the deployment's, or null. */
    public Map<Long, Health> check(List<Soaking> systems, MetricGate metricGate) {
        Map<Long, Health> out = new LinkedHashMap<>();
        if (systems.isEmpty()) {
            return out;
        }
        List<DeviceVerifier.Ask> asks = new ArrayList<>();
        systems.forEach(s -> s.devices().stream().filter(d -> d.health() != null)
                .forEach(d -> asks.add(new DeviceVerifier.Ask(d.controllerId(), d.health()))));
        Map<String, String> refused = new HashMap<>();
        Map<String, Boolean> matches = asks.isEmpty() ? Map.of() : verifier.matches(asks, refused);
        for (Soaking s : systems) {
            List<String> bad = new ArrayList<>();
            List<String> words = new ArrayList<>();
            for (SoakDevice d : s.devices()) {
                if (d.health() != null && Boolean.FALSE.equals(matches.get(d.controllerId()))) {
                    bad.add(d.controllerId());
                    words.add(d.controllerId() + " stopped reporting " + d.health()
                            + (refused.containsKey(d.controllerId()) ? " (" + refused.get(d.controllerId()) + ")" : ""));
                }
            }
            out.put(s.runId(), bad.isEmpty() ? Health.HEALTHY : Health.unhealthy(String.join("; ", words), bad));
        }
        if (metricGate != null) {
            List<Verdict> verdicts = metricGates.verdicts(metricGate, systems.stream()
                    .map(s -> new MetricGates.Subject(s.system(), s.centre())).toList());
            for (int i = 0; i < systems.size(); i++) {
                Health gate = of(verdicts.get(i));
                out.computeIfPresent(systems.get(i).runId(), (id, before) -> before.and(gate));
            }
        }
        return out;
    }

    /** A metric gate's verdict as a soak's health: failed is unhealthy (no single device to blame), inconclusive unknown. */
    static Health of(Verdict v) {
        return v.failed() ? Health.unhealthy(v.reason() + ",", List.of()) : v.inconclusive() ? Health.unknown(v.reason())
                : Health.HEALTHY;
    }
}
