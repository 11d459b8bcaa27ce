package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.InventoryPass;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.time.Duration;
import java.util.function.Supplier;

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

    /** {@code POST …/inventory/sync} as the admin, until its pass has completed: {@link #syncInventory(Supplier)}. */
    public static void syncInventory() {
        syncInventory(Api::admin);
    }

    /**
     * {@code POST …/inventory/sync} as {@code as}, until its pass has completed: a 200, or a 202 (the pass outlasted
     * half the HTTP idle timeout, as on a loaded machine) and then {@code GET …/inventory} saying it completed. A
     * failed pass fails the caller with its error.
     */
    public static void syncInventory(Supplier<RequestSpecification> as) {
        InventoryPass.awaitCompleted(as.get().post("/qawk/v1/inventory/sync"),
                () -> as.get().get("/qawk/v1/inventory").then().statusCode(200).extract().jsonPath(),
                Duration.ofMinutes(5));
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
