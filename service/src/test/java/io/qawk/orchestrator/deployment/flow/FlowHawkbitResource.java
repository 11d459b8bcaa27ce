package io.qawk.orchestrator.deployment.flow;

import java.util.Map;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * hawkBit for flow tests: the in-memory {@link ScaleHawkbit} on the {@link FlowClock}'s time, its devices answering
 * as {@link Flow} tells them (by default each finishes an assignment at once, as seen by the next request).
 */
public class FlowHawkbitResource implements QuarkusTestResourceLifecycleManager {

    private static volatile ScaleHawkbit current;

    /** The double of the running flow application. */
    static ScaleHawkbit current() {
        ScaleHawkbit s = current;
        if (s == null) {
            throw new IllegalStateException("no hawkBit double running (is the test using FlowProfile?)");
        }
        return s;
    }

    @Override
    public Map<String, String> start() {
        current = ScaleHawkbit.start(2).clock(() -> FlowClock.now().toEpochMilli()).deviceRule(Flow.DEVICES);
        return Map.of(
                "qawk.hawkbit.url", current.baseUrl(),
                "qawk.hawkbit.user", "flow",
                "qawk.hawkbit.password", "flow-password");
    }

    @Override
    public void stop() {
        ScaleHawkbit s = current;
        current = null;
        if (s != null) {
            s.close();
        }
    }
}
