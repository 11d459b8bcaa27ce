package io.qawk.orchestrator.security;

import io.qawk.orchestrator.testkit.keycloak.KeycloakServer;
import io.qawk.orchestrator.testkit.keycloak.SharedKeycloak;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/**
 * Issue 34: the API takes the identity provider's tokens (a real Keycloak: the password grant for people, client
 * credentials for a service account), with Qawk's roles from the token's groups; basic auth keeps working beside it.
 */
@QuarkusTest
@TestProfile(SignInProfile.class)
class SignInWithProviderTest {

    static RequestSpecification as(String token) {
        return RestAssured.given().auth().preemptive().oauth2(token).contentType(ContentType.JSON);
    }

    @Test
    void anAdminMayStartAViewerOnlyReadsAndSomeoneInNeitherGroupNothing() {
        KeycloakServer keycloak = SharedKeycloak.get();
        String alice = keycloak.userToken("alice");
        String victor = keycloak.userToken("victor");
        String nina = keycloak.userToken("nina");
        try (Lanes lanes = new Lanes("oidc-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = as(alice).body("{\"name\": \"oidc-start\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");

            as(victor).get("/qawk/v1/systemdeployments/" + id).then().statusCode(200);
            as(victor).post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("detail", containsString("needs the role admin"))
                    .body("detail", containsString(KeycloakServer.ADMIN_GROUP))
                    .body("detail", containsString("victor has the role viewer"));
            as(nina).get("/qawk/v1/systemdeployments/" + id).then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("detail", containsString("needs the role viewer or admin"))
                    .body("detail", containsString("nina has no role of Qawk's"));
            as(nina).post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(403);
            Api.viewer().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200).body("state", equalTo("DRAFT"));

            as(alice).post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200)
                    .body("state", equalTo("RUNNING")).body("startedBy", equalTo("alice"));
            as(alice).post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200)
                    .body("abortedBy", equalTo("alice"));
        }
    }

    @Test
    void meSaysWhoSignedInThroughTheProvider() {
        KeycloakServer keycloak = SharedKeycloak.get();
        as(keycloak.userToken("alice")).get("/qawk/v1/me").then().statusCode(200)
                .body("user", equalTo("alice")).body("name", equalTo("Alice Admin"))
                .body("roles", hasItems("admin", "viewer")).body("canWrite", equalTo(true));
        as(keycloak.userToken("victor")).get("/qawk/v1/me").then().statusCode(200)
                .body("user", equalTo("victor")).body("canWrite", equalTo(false));
        // a service account's token (client credentials), as CI has it, is an admin through its group
        as(keycloak.serviceAccountToken()).get("/qawk/v1/me").then().statusCode(200)
                .body("user", equalTo("service-account-qawk")).body("canWrite", equalTo(true));
        as(keycloak.serviceAccountToken()).body("{}").post("/qawk/v1/systemdeployments").then().statusCode(400);
    }

    @Test
    void noTokenAnExpiredOneOrOneOfAnotherIssuerIsNotLetIn() {
        KeycloakServer keycloak = SharedKeycloak.get();
        Api.anonymous().get("/qawk/v1/systemdeployments").then().statusCode(401)
                .header("WWW-Authenticate", containsString("Bearer"));
        as("not-a-token").get("/qawk/v1/systemdeployments").then().statusCode(401);

        String foreign = keycloak.token(KeycloakServer.OTHER_REALM, KeycloakServer.CLIENT_ID, null, "alice",
                keycloak.password());
        assertThat(KeycloakServer.claims(foreign).path("groups").toString()).contains(KeycloakServer.ADMIN_GROUP);
        as(foreign).get("/qawk/v1/systemdeployments").then().statusCode(401);

        String shortLived = keycloak.token(KeycloakServer.REALM, KeycloakServer.SHORT_LIVED_CLIENT, null, "alice",
                keycloak.password());
        Instant expires = Instant.ofEpochSecond(KeycloakServer.claims(shortLived).path("exp").asLong());
        as(shortLived).get("/qawk/v1/systemdeployments").then().statusCode(200); // it lives five seconds
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> Instant.now().isAfter(expires.plusSeconds(1)));
        as(shortLived).get("/qawk/v1/systemdeployments").then().statusCode(401);
    }

    /**
     * Issue 42: a token Keycloak issued to another client of the same realm (another application's) is refused, even an
     * admin's: it carries no audience for Qawk. Qawk's own tokens (azp qawk) and those of a client whose audience
     * mapper names Qawk are taken.
     */
    @Test
    void aTokenForAnotherClientOfTheRealmIsRefusedSayingWhy() {
        KeycloakServer keycloak = SharedKeycloak.get();
        String other = keycloak.token(KeycloakServer.REALM, KeycloakServer.OTHER_CLIENT, null, "alice",
                keycloak.password());
        assertThat(KeycloakServer.claims(other).path("azp").asText()).isEqualTo(KeycloakServer.OTHER_CLIENT);
        assertThat(KeycloakServer.claims(other).path("aud").toString()).doesNotContain("\"" + KeycloakServer.CLIENT_ID + "\"");
        assertThat(KeycloakServer.claims(other).path("groups").toString()).contains(KeycloakServer.ADMIN_GROUP);
        as(other).get("/qawk/v1/systemdeployments").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer"))
                .body("detail", containsString("not for Qawk"))
                .body("detail", containsString(KeycloakServer.OTHER_CLIENT))
                .body("detail", containsString("audience " + KeycloakServer.CLIENT_ID));
        as(other).body("{}").post("/qawk/v1/systemdeployments").then().statusCode(401);

        as(keycloak.userToken("alice")).get("/qawk/v1/systemdeployments").then().statusCode(200);
        as(keycloak.serviceAccountToken()).get("/qawk/v1/systemdeployments").then().statusCode(200);
        String mapped = keycloak.token(KeycloakServer.REALM, KeycloakServer.SHORT_LIVED_CLIENT, null, "alice",
                keycloak.password());
        assertThat(KeycloakServer.claims(mapped).path("aud").toString()).contains("\"" + KeycloakServer.CLIENT_ID + "\"");
        as(mapped).get("/qawk/v1/me").then().statusCode(200).body("user", equalTo("alice"));
    }

    /**
     * Issue 42, four eyes with the provider's roles: the role approver comes from the token's groups
     * ({@code QAWK_OIDC_APPROVER_ROLES}, here {@value KeycloakServer#APPROVER_GROUP}). lena, an admin who is an approver
     * too, creates a deployment of a type requiring approval: her own approval is refused by the rule, paula's (an
     * approver only, who may not start it) is taken, and lena then starts it.
     */
    @Test
    void theProvidersApproverApprovesWhatAnAdminCreatedAndTheAdminCannotApproveHerOwn() {
        KeycloakServer keycloak = SharedKeycloak.get();
        String lena = keycloak.userToken("lena");
        String paula = keycloak.userToken("paula");
        try (Lanes lanes = new Lanes("oidc-appr-").withSetsAndType()) {
            lanes.retype("\"approval\": \"required\"");
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = as(lena).body("{\"name\": \"oidc-four-eyes\", \"manifestId\": " + manifest
                            + ", \"systems\": [\"lane-01\"]}").post("/qawk/v1/systemdeployments").then().statusCode(201)
                    .body("state", equalTo("AWAITING_APPROVAL")).body("createdBy", equalTo("lena"))
                    .extract().path("id");
            String deployment = "/qawk/v1/systemdeployments/" + id;

            as(lena).body("{\"comment\": \"mine, looks fine\"}").post(deployment + "/approve").then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("detail", containsString("four eyes")).body("detail", containsString("lena"));
            as(lena).post(deployment + "/start").then().statusCode(409);
            as(paula).post(deployment + "/start").then().statusCode(403); // an approver is no admin

            as(paula).body("{\"comment\": \"checked against CHG-9\"}").post(deployment + "/approve").then()
                    .statusCode(200).body("state", equalTo("DRAFT")).body("approval.approvedBy", equalTo("paula"))
                    .body("approval.comment", equalTo("checked against CHG-9"));
            as(lena).post(deployment + "/start").then().statusCode(200)
                    .body("state", equalTo("RUNNING")).body("startedBy", equalTo("lena"));
            as(lena).post(deployment + "/abort").then().statusCode(200);
            as(paula).get("/qawk/v1/me").then().statusCode(200).body("user", equalTo("paula"))
                    .body("roles", hasItems("approver", "viewer")).body("canWrite", equalTo(false));
        }
    }

    @Test
    void basicAuthStillWorksBesideTheProvider() {
        Api.admin().get("/qawk/v1/me").then().statusCode(200).body("user", equalTo("admin"));
        Api.viewer().body("{}").post("/qawk/v1/systemdeployments").then().statusCode(403)
                .contentType("application/problem+json").body("detail", containsString("needs the role admin"));
        RestAssured.given().auth().preemptive().basic("admin", "wrong").get("/qawk/v1/me").then().statusCode(401);
    }
}
