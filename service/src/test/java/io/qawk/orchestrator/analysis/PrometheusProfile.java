package io.qawk.orchestrator.analysis;

import io.qawk.orchestrator.testkit.prometheus.SharedPrometheus;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The service with a Prometheus: the test JVM's shared real one ({@link SharedPrometheus}), which scrapes an endpoint
 * the tests set every second. The metric gate's end-to-end tests share this profile (each profile restarts Quarkus).
 */
public class PrometheusProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("qawk.prometheus.url", SharedPrometheus.get().url(), "qawk.prometheus.timeout", "2s");
    }
}
