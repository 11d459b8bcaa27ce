package io.qawk.orchestrator.security;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a token is for Qawk: its aud names Qawk's audience, or it was issued to Qawk's client (azp). */
class TokenAudienceTest {

    @Test
    void aTokenForQawkByAudOrAzpIsTaken() {
        assertThat(TokenAudience.refusal(Set.of("account"), "qawk", List.of("qawk"))).isEmpty();
        assertThat(TokenAudience.refusal(Set.of("qawk", "account"), "qawk-cli", List.of("qawk"))).isEmpty();
        assertThat(TokenAudience.refusal(Set.of("api://qawk"), "x", List.of("qawk", "api://qawk"))).isEmpty();
    }

    @Test
    void aTokenForAnotherClientIsRefusedSayingWhy() {
        assertThat(TokenAudience.refusal(Set.of("account"), "qawk-other", List.of("qawk"))).hasValueSatisfying(why ->
                assertThat(why).contains("not for Qawk", "qawk-other", "the audience account", "audience qawk",
                        "QAWK_OIDC_AUDIENCE"));
        assertThat(TokenAudience.refusal(Set.of(), null, List.of("qawk"))).isPresent();
        assertThat(TokenAudience.refusal(null, "qawk-other", List.of("qawk"))).isPresent();
    }
}
