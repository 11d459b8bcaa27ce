package io.qawk.orchestrator.channel.config;

import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The service as the Helm chart configures it: channels from a values-like file, and /q/metrics behind the viewer
 * role. The only test profile of these tests (each profile restarts Quarkus).
 */
public class ChannelsConfigProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "qawk.fleets.file", SharedHawkbit.projectDir().resolve("service/src/test/resources/fleets/channels.yaml").toString(),
                "qawk.metrics.require-auth", "true");
    }
}
