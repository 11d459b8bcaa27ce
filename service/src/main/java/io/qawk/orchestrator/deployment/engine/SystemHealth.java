package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.analysis.MetricGate;
import io.qawk.orchestrator.analysis.MetricGates;
import io.qawk.orchestrator.analysis.Verdict;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.plan.Health;
import io.qawk.orchestrator.deployment.store.RunStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place where "is this soaking system still healthy?" is decided, once per pass for every soaking system of a
 * deployment. A system is unhealthy when any of its devices does not match its component's health query (asked of
 * hawkBit in bulk by {@link DeviceVerifier}), when the deployment's metric gate fails for it (Prometheus gave a number
 * that misses the condition; the reason carries the value), or when any {@link HealthGate} bean says so; a gate that
 * cannot tell (Prometheus away, no data) or that throws makes the verdict unknown (the soak neither ends nor fails). hawkBit that cannot be asked is not a verdict:
 * the exception reaches the engine, which counts the time as not observed and extends the soak by it.
 */
@ApplicationScoped
public class SystemHealth {

    private static final Logger LOG = Logger.getLogger(SystemHealth.class);

    @Inject
    DeviceVerifier verifier;

    @Inject
    Instance<HealthGate> gates;

    @Inject
    MetricGates metricGates;

    /** The soaking runs of a pass, as they are judged: their devices on their sets, with their health queries. */
    static List<HealthGate.Soaking> soaking(RunStore.Snapshot snap) {
        List<HealthGate.Soaking> out = new ArrayList<>();
        for (RunStore.PlannableRun run : snap.runsToPlan()) {
            if (run.state() != RunState.VERIFYING) {
                continue;
            }
            List<HealthGate.SoakDevice> devices = run.devices().stream()
                    .filter(d -> d.state() == DeviceState.SUCCEEDED || d.state() == DeviceState.ALREADY_ON_SET)
                    .map(d -> new HealthGate.SoakDevice(d.controllerId(), run.componentOf().get(d.controllerId()),
                            d.health()))
                    .toList();
            out.add(new HealthGate.Soaking(run.id(), snap.deploymentId(), run.systemTypeId(), run.system(),
                    run.group(), run.soakStartedAt(), run.soakEndsAt(), devices));
        }
        return out;
    }

    /** Each system's verdict by run id (every system given has one); {@code metricGate}: the deployment's, or null. */
    public Map<Long, Health> check(List<HealthGate.Soaking> systems, MetricGate metricGate) {
        Map<Long, Health> out = new LinkedHashMap<>();
        if (systems.isEmpty()) {
            return out;
        }
        List<DeviceVerifier.Ask> asks = new ArrayList<>();
        systems.forEach(s -> s.devices().stream().filter(d -> d.health() != null)
                .forEach(d -> asks.add(new DeviceVerifier.Ask(d.controllerId(), d.health()))));
        Map<String, String> refused = new HashMap<>();
        Map<String, Boolean> matches = asks.isEmpty() ? Map.of() : verifier.matches(asks, refused);
        for (HealthGate.Soaking s : systems) {
            List<String> bad = new ArrayList<>();
            List<String> words = new ArrayList<>();
            for (HealthGate.SoakDevice d : s.devices()) {
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
        for (HealthGate gate : gates) {
            Map<Long, Health> more;
            try {
                more = gate.check(systems);
            } catch (RuntimeException e) {
                LOG.warnf(e, "Health gate %s failed; the soaks it judges wait", gate.getClass().getSimpleName());
                Health unknown = Health.unknown(gate.getClass().getSimpleName() + " could not tell: " + e.getMessage());
                more = new LinkedHashMap<>();
                for (HealthGate.Soaking s : systems) {
                    more.put(s.runId(), unknown);
                }
            }
            if (more != null) {
                more.forEach((runId, h) -> out.computeIfPresent(runId, (id, before) -> before.and(h)));
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
