package io.qawk.orchestrator.security;

import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.KeycloakTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;
import java.util.Map;

/**
 * The service with the real Keycloak as its identity provider and the real hawkBit, basic auth still on: one Quarkus
 * start for the sign-in and audit tests ({@link SignInWithProviderTest}, {@code audit/AuditEndToEndTest}).
 */
public class SignInProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        // started side by side: each takes a while on a busy machine
        return List.of(new TestResourceEntry(HawkbitTestResource.class, Map.of(), true),
                new TestResourceEntry(KeycloakTestResource.class, Map.of(), true));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of();
    }
}
