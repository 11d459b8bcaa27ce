package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * The headers a browser needs (issue 56; an outside scan found none): on the screen a Content-Security-Policy it works
 * under (no inline script, nothing from elsewhere), on the API one that allows nothing at all; framing refused
 * everywhere ({@code X-Frame-Options: DENY} and {@code frame-ancestors 'none'}); {@code nosniff} on everything —
 * refusals too. The signed-in page is never kept by a cache, and the screen's files, which need a sign-in too, only
 * by the browser (never {@code public}).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class SecurityHeadersTest {

    static final String SCREEN_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    static final String API_CSP = "default-src 'none'; frame-ancestors 'none'";

    private static ValidatableResponse framingRefusedAndNotSniffed(ValidatableResponse r) {
        return r.header("X-Frame-Options", "DENY").header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"));
    }

    @Test
    void theSignedInPageIsNeverCachedAndWorksUnderItsPolicy() {
        for (String path : new String[] {"/ui/", "/ui/index.html"}) {
            framingRefusedAndNotSniffed(Api.viewer().get(path).then().statusCode(200)
                    .contentType(containsString("text/html")))
                    .header("Content-Security-Policy", equalTo(SCREEN_CSP))
                    .header("Cache-Control", equalTo("no-store"))
                    .header("Referrer-Policy", equalTo("no-referrer"));
        }
    }

    @Test
    void theScreensFilesAreKeptOnlyByTheBrowserThatSignedIn() {
        for (String path : new String[] {"/ui/app.js", "/ui/core.js", "/ui/app.css"}) {
            framingRefusedAndNotSniffed(Api.viewer().get(path).then().statusCode(200))
                    .header("Content-Security-Policy", equalTo(SCREEN_CSP))
                    .header("Cache-Control", allOf(startsWith("private"), not(containsString("public")),
                            not(containsString("immutable"))));
        }
        Api.viewer().get("/ui/app.js").then().contentType(containsString("javascript"));
    }

    @Test
    void theApiAllowsNothingToRunAndRefusesFramingInItsAnswersAndItsRefusals() {
        framingRefusedAndNotSniffed(Api.viewer().get("/qawk/v1/systemtypes").then().statusCode(200)
                .contentType(containsString("application/json")))
                .header("Content-Security-Policy", equalTo(API_CSP));
        framingRefusedAndNotSniffed(Api.viewer().get("/qawk/v1/systemtypes/987654321").then().statusCode(404)
                .contentType(containsString("application/problem+json")))
                .header("Content-Security-Policy", equalTo(API_CSP));
        framingRefusedAndNotSniffed(Api.anonymous().get("/qawk/v1/systemtypes").then().statusCode(401))
                .header("Content-Security-Policy", equalTo(API_CSP));
        framingRefusedAndNotSniffed(Api.anonymous().get("/ui/").then().statusCode(401))
                .header("Cache-Control", not(containsString("public")));
    }

    @Test
    void swaggerUiKeepsWorkingAndIsNotFramedEither() {
        framingRefusedAndNotSniffed(Api.anonymous().get("/q/swagger-ui/").then().statusCode(200)
                .contentType(containsString("text/html")));
        framingRefusedAndNotSniffed(Api.anonymous().get("/q/openapi").then().statusCode(200));
    }
}
