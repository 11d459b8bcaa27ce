package io.qawk.orchestrator.testsupport;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * Requests as the configured test users (passwords from the %test profile). Every answer to them is checked against
 * the published OpenAPI document ({@link Contract}).
 */
public final class Api {

    public static final String ADMIN_PASSWORD = "test-admin-pw";
    public static final String VIEWER_PASSWORD = "test-viewer-pw";
    public static final String APPROVER_PASSWORD = "test-approver-pw";
    public static final String LEAD_PASSWORD = "test-lead-pw";

    private Api() {
    }

    public static RequestSpecification admin() {
        return RestAssured.given().auth().preemptive().basic("admin", ADMIN_PASSWORD).contentType(ContentType.JSON)
                .filter(Contract.CHECK);
    }

    public static RequestSpecification viewer() {
        return RestAssured.given().auth().preemptive().basic("viewer", VIEWER_PASSWORD).contentType(ContentType.JSON)
                .filter(Contract.CHECK);
    }

    /** The approver of four eyes (issue 42): approves or rejects, changes nothing else. */
    public static RequestSpecification approver() {
        return RestAssured.given().auth().preemptive().basic("approver", APPROVER_PASSWORD).contentType(ContentType.JSON);
    }

    /** An admin who is an approver too (the %test profile only), to show that nobody approves their own deployment. */
    public static RequestSpecification lead() {
        return RestAssured.given().auth().preemptive().basic("lead", LEAD_PASSWORD).contentType(ContentType.JSON);
    }

    public static RequestSpecification anonymous() {
        return RestAssured.given().contentType(ContentType.JSON)
                .filter(Contract.CHECK);
    }
}
