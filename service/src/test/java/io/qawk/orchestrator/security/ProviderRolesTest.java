package io.qawk.orchestrator.security;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The provider's roles or groups as Qawk's roles, and the roles claim as operators write it. */
class ProviderRolesTest {

    @Test
    void onlyConfiguredRolesCountAndAnAdminMayAlsoRead() {
        List<String> admins = List.of("release-managers", "sre");
        List<String> viewers = List.of("qa");
        assertThat(ProviderRoles.qawkRoles(Set.of("sre", "offline_access"), admins, viewers))
                .containsExactly("admin", "viewer");
        assertThat(ProviderRoles.qawkRoles(Set.of("qa"), admins, viewers)).containsExactly("viewer");
        assertThat(ProviderRoles.qawkRoles(Set.of("admin", "viewer"), admins, viewers)).as("the provider's own words")
                .isEmpty();
        assertThat(ProviderRoles.qawkRoles(Set.of("/acme/release-managers"), admins, viewers)).contains("admin");
        assertThat(ProviderRoles.qawkRoles(Set.of("sre"), List.of(), List.of())).isEmpty();
    }

    @Test
    void theApproverRolesMakeAnApproverWhoMayReadButNotAnAdmin() {
        List<String> admins = List.of("sre");
        List<String> viewers = List.of("qa");
        List<String> approvers = List.of("change-board");
        assertThat(ProviderRoles.qawkRoles(Set.of("/acme/change-board"), admins, viewers, approvers))
                .containsExactly("approver", "viewer");
        assertThat(ProviderRoles.qawkRoles(Set.of("sre", "change-board"), admins, viewers, approvers))
                .containsExactly("admin", "approver", "viewer");
        assertThat(ProviderRoles.qawkRoles(Set.of("sre"), admins, viewers, approvers)).as("an admin is no approver")
                .doesNotContain("approver");
        assertThat(ProviderRoles.qawkRoles(Set.of("approver"), admins, viewers, approvers)).as("the provider's own words")
                .isEmpty();
    }

    @Test
    void aDottedClaimBecomesTheExtensionsPathAndAQuotedNameStaysWhole() {
        assertThat(SignInSettings.claimPath("realm_access.roles")).isEqualTo("realm_access/roles");
        assertThat(SignInSettings.claimPath("groups")).isEqualTo("groups");
        assertThat(SignInSettings.claimPath("\"https://example.com/roles\"")).isEqualTo("\"https://example.com/roles\"");
        assertThat(SignInSettings.claimPath("resource_access.qawk.roles")).isEqualTo("resource_access/qawk/roles");
    }
}
