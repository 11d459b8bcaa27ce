package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.keycloak.KeycloakServer;
import io.qawk.orchestrator.testkit.keycloak.SharedKeycloak;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Points the service under test at the test JVM's real Keycloak ({@link SharedKeycloak}) as its identity provider:
 * the test realm's issuer and confidential client, roles from the claim {@code groups}, the group
 * {@value KeycloakServer#ADMIN_GROUP} for admins, {@value KeycloakServer#VIEWER_GROUP} for viewers and
 * {@value KeycloakServer#APPROVER_GROUP} for approvers ({@code QAWK_OIDC_APPROVER_ROLES}).
 */
public class KeycloakTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        KeycloakServer keycloak = SharedKeycloak.get();
        return Map.of(
                "qawk.oidc.issuer", keycloak.issuer(),
                "quarkus.oidc.client-id", KeycloakServer.CLIENT_ID,
                "quarkus.oidc.credentials.secret", keycloak.clientSecret(),
                "qawk.oidc.roles-claim", "groups",
                "qawk.oidc.admin-roles", KeycloakServer.ADMIN_GROUP,
                "qawk.oidc.viewer-roles", KeycloakServer.VIEWER_GROUP,
                "qawk.oidc.approver-roles", KeycloakServer.APPROVER_GROUP);
    }

    @Override
    public void stop() {
        // the shared Keycloak lives for the whole test JVM and is stopped by its shutdown hook
    }
}
