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

    public static RequestSpecification anonymous() {
        return RestAssured.given().contentType(ContentType.JSON)
                .filter(Contract.CHECK);
    }
}
