package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts a {@link ScaleHawkbit} (empty; the benchmark fills it) and points the service at it. The running double is
 * handed to the test through {@link #current()} and through injection into a field of type {@link ScaleHawkbit}.
 */
public class ScaleHawkbitResource implements QuarkusTestResourceLifecycleManager {

    private static volatile ScaleHawkbit current;

    /** The double of the running test application. */
    public static ScaleHawkbit current() {
        ScaleHawkbit s = current;
        if (s == null) {
            throw new IllegalStateException("no ScaleHawkbit running (is the test using BenchProfile?)");
        }
        return s;
    }

    @Override
    public Map<String, String> start() {
        current = ScaleHawkbit.start(Integer.getInteger("qawk.bench.hawkbit-threads", 8));
        return Map.of(
                "qawk.hawkbit.url", current.baseUrl(),
                "qawk.hawkbit.user", "bench",
                "qawk.hawkbit.password", "bench-password");
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(current, new TestInjector.MatchesType(ScaleHawkbit.class));
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
