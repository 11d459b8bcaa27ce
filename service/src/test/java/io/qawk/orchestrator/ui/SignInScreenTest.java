package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.keycloak.KeycloakServer;
import io.qawk.orchestrator.testkit.keycloak.SharedKeycloak;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 34, the screen signs in through the identity provider: with basic auth switched off, a person signs in on
 * Keycloak's own page (the code flow with PKCE), is named on the screen, starts a deployment from it and reads "started
 * by" with their name; a viewer sees no start button; signing out ends the session.
 */
@QuarkusTest
@TestProfile(SignInScreenProfile.class)
class SignInScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @TestHTTPResource("/ui/")
    URL page;

    private URI page() {
        return URI.create(page.toString().replace("127.0.0.1", "localhost"));
    }

    static RequestSpecification as(String token) {
        return RestAssured.given().auth().preemptive().oauth2(token).contentType(ContentType.JSON);
    }

    @Test
    void basicAuthSwitchedOffIsRefusedAndTheScreenSendsYouToTheProvider() {
        Api.admin().get("/qawk/v1/me").then().statusCode(401).header("WWW-Authenticate", "Bearer");
        Api.anonymous().get("/qawk/v1/me").then().statusCode(401);
        Api.anonymous().redirects().follow(false).get("/ui/").then().statusCode(302)
                .header("Location", allOf(startsWith(SharedKeycloak.get().issuer() + "/protocol/openid-connect/auth"),
                        containsString("code_challenge_method=S256")));
    }

    @Test
    void anAdminSignsInOnTheProvidersPageStartsADeploymentAndIsNamedAsWhoStartedIt() {
        KeycloakServer keycloak = SharedKeycloak.get();
        try (Lanes lanes = new Lanes("uisign-").as(() -> as(keycloak.userToken("alice"))).withSetsAndType();
             Browser browser = Browser.start(null, null)) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            int id = as(keycloak.userToken("alice")).body("{\"name\": \"uisign-2.0\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");

            signIn(browser, "alice", keycloak.password());
            browser.await(WITHIN, d -> d.findElement(By.id("who")).getText().startsWith("Signed in as Alice Admin"));
            assertThat(browser.find("#who").getText()).isEqualTo("Signed in as Alice Admin — may change things");
            assertThat(browser.find("#sign-out").getText()).isEqualTo("Sign out");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='dep-" + id + "-start']")).isEmpty());
            browser.click("[data-key='dep-" + id + "-start']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='dep-by-" + id + "']")).isEmpty());
            assertThat(browser.find("[data-key='dep-by-" + id + "']").getText())
                    .matches(Pattern.compile("started by alice \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d[ \u00a0]\\S+"));
            browser.screenshot("signed-in-admin");

            // signing out ends the provider's session: the screen asks for a sign-in again
            assertThat(browser.find("#sign-out").getAttribute("href")).endsWith("/ui/logout");
            browser.click("#sign-out");
            browser.await(WITHIN, d -> !d.findElements(By.id("kc-login")).isEmpty());

            // a viewer sees the deployment and no button that would be refused
            signIn(browser, "victor", keycloak.password());
            browser.await(WITHIN, d -> d.findElement(By.id("who")).getText().startsWith("Signed in as Victor Viewer"));
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='" + id + "']")).isEmpty());
            assertThat(browser.find("#who").getText()).endsWith("read only: actions are hidden");
            assertThat(browser.all("[data-key^='dep-" + id + "-']")).as("no start, pause or abort").isEmpty();
            assertThat(browser.all("[data-key='new-deployment']")).isEmpty();
        }
    }

    private void signIn(Browser browser, String user, String password) {
        browser.navigate(page());
        browser.await(WITHIN, d -> !d.findElements(By.id("kc-login")).isEmpty());
        assertThat(browser.driver.getCurrentUrl()).startsWith(SharedKeycloak.get().issuer());
        browser.find("#username").sendKeys(user);
        browser.find("#password").sendKeys(password);
        browser.click("#kc-login");
    }
}
