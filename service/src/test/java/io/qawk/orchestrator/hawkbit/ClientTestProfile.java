package io.qawk.orchestrator.hawkbit;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The client tests need a running Quarkus only for its REST client and Fault Tolerance runtime: no real hawkBit (the
 * tests build gateways against WireMock themselves), no engine or sync passes.
 */
public class ClientTestProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("qawk.inventory.initial-delay", "1h", "qawk.engine.initial-delay", "1h");
    }

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }
}
