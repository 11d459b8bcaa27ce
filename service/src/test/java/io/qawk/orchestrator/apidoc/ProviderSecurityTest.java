package io.qawk.orchestrator.apidoc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qawk.orchestrator.security.SignInProfile;
import io.qawk.orchestrator.testkit.keycloak.SharedKeycloak;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * With an identity provider configured ({@code QAWK_OIDC_ISSUER}: the sign-in tests' real Keycloak, the same Quarkus
 * start as theirs) the published document declares its OpenID Connect scheme with the discovery URL, beside HTTP
 * basic, and that URL is the provider's discovery document; without one only basic is declared
 * ({@code PublishedContractTest}).
 */
@QuarkusTest
@TestProfile(SignInProfile.class)
class ProviderSecurityTest {

    @Test
    void theProvidersOpenIdConnectSchemeIsDeclaredWithItsDiscoveryUrlBesideBasic() throws IOException {
        String issuer = SharedKeycloak.get().issuer();
        JsonNode live = new ObjectMapper(new YAMLFactory()).readTree(PublishedContractTest.published());

        JsonNode oidc = live.at("/components/securitySchemes/" + ProviderSecurityFilter.OIDC);
        assertThat(oidc.path("type").asText()).isEqualTo("openIdConnect");
        String discovery = oidc.path("openIdConnectUrl").asText();
        assertThat(discovery).isEqualTo(issuer.replaceFirst("/$", "") + "/.well-known/openid-configuration");
        assertThat(live.at("/components/securitySchemes/basic/scheme").asText()).isEqualTo("basic");
        assertThat(live.path("security").toString()).isEqualTo("[{\"basic\":[]},{\"oidc\":[]}]");

        // a client follows the URL to the provider's endpoints: it is the provider's discovery document
        RestAssured.given().get(discovery).then().statusCode(200).body("issuer", equalTo(issuer))
                .body("token_endpoint", Matchers.startsWith(issuer));
    }
}
