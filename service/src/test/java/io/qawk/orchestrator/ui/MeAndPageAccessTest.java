package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.contains;

/** Who am I, and the page behind the same users and roles as the API. */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class MeAndPageAccessTest {

    @Test
    void meSaysWhoIsAskingAndWhetherTheyMayChangeThings() {
        Api.admin().get("/qawk/v1/me").then().statusCode(200)
                .body("user", equalTo("admin")).body("roles", contains("admin", "viewer")).body("canWrite", equalTo(true));
        Api.viewer().get("/qawk/v1/me").then().statusCode(200)
                .body("user", equalTo("viewer")).body("roles", contains("viewer")).body("canWrite", equalTo(false));
        Api.anonymous().get("/qawk/v1/me").then().statusCode(401);
    }

    @Test
    void thePageNeedsALoggedInUserAndTheRootLeadsToIt() {
        Api.anonymous().get("/ui/").then().statusCode(401).header("WWW-Authenticate", containsStringIgnoringCase("basic"));
        Api.anonymous().get("/ui/app.js").then().statusCode(401);
        Api.anonymous().get("/ui").then().statusCode(401);
        Api.viewer().get("/ui/").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("Orchestrator"));
        Api.viewer().get("/ui/app.js").then().statusCode(200);
        Api.anonymous().redirects().follow(false).get("/").then().statusCode(303).header("Location", endsWith("/ui/"));
    }
}
