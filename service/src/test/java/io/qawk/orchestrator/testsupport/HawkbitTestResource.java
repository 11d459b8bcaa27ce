package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Points the service under test at the shared real hawkBit of this test JVM. */
public class HawkbitTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        HawkbitServer hawkbit = SharedHawkbit.get();
        return Map.of(
                "qawk.hawkbit.url", hawkbit.baseUrl(),
                "qawk.hawkbit.user", hawkbit.user(),
                "qawk.hawkbit.password", hawkbit.password(),
                "qawk.hawkbit.tenant", hawkbit.tenant());
    }

    @Override
    public void stop() {
        // the shared hawkBit lives for the whole test JVM and is stopped by its shutdown hook
    }
}
