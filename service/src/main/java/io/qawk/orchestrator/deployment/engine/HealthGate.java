package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.plan.Health;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A source of "is this soaking system still healthy?" besides its devices' health queries: a bean implementing this
 * (for example a metrics gate in another package) is asked by {@link SystemHealth}, the one place where a system's
 * health during its soak is decided, once per engine pass with every soaking system of a deployment.
 *
 * <p>It must answer quickly and must not throw for a system it cannot judge: {@link Health#unknown} keeps the soak
 * from ending without failing it. A system it leaves out of its answer is healthy as far as it is concerned.
 */
public interface HealthGate {

    /** A system in its soak: run, deployment, system type and name, its centre (or null), the soak's span, its devices. */
    record Soaking(long runId, long deploymentId, long systemTypeId, String system, String centre, Instant startedAt,
                   Instant endsAt,
                   List<SoakDevice> devices) {
    }

    /** A device of a soaking system; {@code health}: its component's health query, or null. */
    record SoakDevice(String controllerId, String componentType, String health) {
    }

    /** The verdict for each system it has one for, by run id. */
    Map<Long, Health> check(List<Soaking> systems);
}
