package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.KeycloakTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;
import java.util.Map;

/** The service with the real Keycloak as its only way in: basic auth switched off ({@code QAWK_BASIC_AUTH=false}). */
public class SignInScreenProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(HawkbitTestResource.class, Map.of(), true),
                new TestResourceEntry(KeycloakTestResource.class, Map.of(), true));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("qawk.basic-auth", "false");
    }
}
