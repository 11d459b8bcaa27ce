package io.qawk.orchestrator.deployment.flow;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The one profile of the flow tests (one Quarkus start for all of them): hawkBit is the in-memory double
 * ({@link FlowHawkbitResource}, no global test resource: no real hawkBit starts), the clock is {@link FlowClock}, and
 * nothing passes on its own: the engine's loop and the release engine wait an hour (their initial delay) before their first pass (the
 * engine's {@code PassLoop} does nothing on a wake before its initial delay), the inventory is synced by the test,
 * so every pass is a test's {@link Flow#tick()}. hawkBit's failures are not retried and never open the circuit
 * breaker (a breaker waits real time), so a tick sees exactly what the double answers.
 */
public class FlowProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> c = new HashMap<>();
        for (String prefix : List.of("", "%test.")) {
            // the loop's first pass would come after the initial delay: never in a test. The interval stays the
            // default (10 s), since it bounds how long an observation is fresh (UnobservedTime.freshFor)
            c.put(prefix + "qawk.engine.interval", "10s");
            c.put(prefix + "qawk.engine.initial-delay", "1h");
            c.put(prefix + "qawk.inventory.sync-interval", "1h");
            c.put(prefix + "qawk.inventory.initial-delay", "1h");
            c.put(prefix + "qawk.evidence.sweep-interval", "1h");
            c.put(prefix + "qawk.metrics.refresh-interval", "1h");
        }
        c.put("qawk.hawkbit.max-retries", "0");
        c.put("qawk.hawkbit.retry-delay", "10ms");
        c.put("qawk.hawkbit.retry-max-delay", "10ms");
        c.put("qawk.hawkbit.circuit-breaker-threshold", "1000000");
        return c;
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(FlowClock.class);
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FlowHawkbitResource.class));
    }

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }
}
