package io.qawk.orchestrator.security;

import io.qawk.orchestrator.common.SecurityStartupCheck;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up check of the user configuration, without starting the application. */
class SecurityStartupCheckTest {

    static final String HASH = "e27f918629f8624f9800c493db500d0e438664b1b3bd20624407e164269aa06d"
            + "2b796ae27759d6a708a040ea4bce3824593a43babc8cb585f45131c6078301d2";

    @Test
    void anEmptyAdminCredentialIsRefused() {
        assertThat(SecurityStartupCheck.problem("", false, "digest-sha-512", Map.of()))
                .hasValueSatisfying(p -> assertThat(p).contains("QAWK_ADMIN_PASSWORD_HASH"));
        assertThat(SecurityStartupCheck.problem(null, true, "digest-sha-512", Map.of()))
                .hasValueSatisfying(p -> assertThat(p).contains("admin"));
        assertThat(SecurityStartupCheck.problem("  ", false, "digest-sha-512", Map.of())).isPresent();
    }

    @Test
    void aPlainPasswordWhereAHashBelongsIsRefusedWithoutQuotingIt() {
        assertThat(SecurityStartupCheck.problem("my-secret-pw", false, "digest-sha-512", Map.of()))
                .hasValueSatisfying(p -> assertThat(p).contains("128 hexadecimal").doesNotContain("my-secret-pw"));
        assertThat(SecurityStartupCheck.problem(HASH.substring(0, 64), false, "digest-sha-512", Map.of())).isPresent();
        assertThat(SecurityStartupCheck.problem(HASH.substring(0, 64), false, "digest-sha-256", Map.of())).isEmpty();
    }

    @Test
    void theRefusalSaysHowToComputeTheHash() {
        assertThat(SecurityStartupCheck.problem("", false, "digest-sha-512", Map.of()))
                .hasValueSatisfying(p -> assertThat(p).contains("sha512sum").contains("QAWK_ADMIN_PASSWORD"));
    }

    @Test
    void aHashOrAPlainPasswordInPlainTextModeIsAccepted() {
        assertThat(SecurityStartupCheck.problem(HASH, false, "digest-sha-512", Map.of())).isEmpty();
        assertThat(SecurityStartupCheck.problem(HASH.toUpperCase(), false, "digest-sha-512", Map.of())).isEmpty();
        assertThat(SecurityStartupCheck.problem("admin", true, "digest-sha-512", Map.of())).isEmpty();
    }

    @Test
    void withNeitherAProviderNorBasicAuthNobodyCouldSignInAndTheStartIsRefused() {
        assertThat(SecurityStartupCheck.problem(HASH, false, "digest-sha-512", Map.of(), false, false))
                .hasValueSatisfying(p -> assertThat(p).contains("QAWK_BASIC_AUTH=false").contains("QAWK_OIDC_ISSUER"));
        assertThat(SecurityStartupCheck.problem("", false, "digest-sha-512", Map.of(), true, false))
                .hasValueSatisfying(p -> assertThat(p).contains("No way to sign in").contains("QAWK_OIDC_ISSUER"));
    }

    @Test
    void aProviderAloneOrBesideBasicAuthIsAWayIn() {
        assertThat(SecurityStartupCheck.problem("", false, "digest-sha-512", Map.of(), false, true)).isEmpty();
        assertThat(SecurityStartupCheck.problem("", false, "digest-sha-512", Map.of(), true, true)).isEmpty();
        assertThat(SecurityStartupCheck.problem("plain-pw", false, "digest-sha-512", Map.of(), true, true)).isPresent();
    }
}
