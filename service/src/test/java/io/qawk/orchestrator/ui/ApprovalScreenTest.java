package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four eyes on the screen (issue 42), in headless Chromium over the real service and hawkBit: a deployment of a type
 * that requires approval shows the rule and "awaiting approval"; its creator (an admin) gets no Approve button; an
 * approver approves it with a comment there, and the drawer then says who approved it and why, and the deployment's
 * own timeline lists it.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ApprovalScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @TestHTTPResource("/ui/")
    URL page;

    @Test
    void anApproverApprovesOnTheScreenAndTheCreatorCannot() {
        try (Lanes lanes = new Lanes("apscr-").withSetsAndType()) {
            lanes.retype("\"approval\": \"required\"");
            int manifest = lanes.manifest("2.0", "2");
            int id = Api.admin().body("{\"name\": \"" + lanes.prefix + "d\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
            String view = "[data-approval='" + id + "']";
            URI drawer = URI.create(page.toString().replace("127.0.0.1", "localhost") + "#deployment-" + id);

            try (Browser admin = Browser.start("admin", Api.ADMIN_PASSWORD)) {
                admin.open(drawer);
                admin.await(WITHIN, d -> !admin.all(view + " [data-approval-state='awaiting']").isEmpty());
                assertThat(admin.find(view + " [data-approval-rule]").getText()).contains(lanes.prefix + "lane")
                        .contains("other than admin");
                assertThat(admin.all("[data-key='approve-" + id + "']")).as("the creator, no approver").isEmpty();
            }

            try (Browser approver = Browser.start("approver", Api.APPROVER_PASSWORD)) {
                approver.open(drawer);
                approver.await(WITHIN, d -> !approver.all("[data-key='approve-" + id + "']").isEmpty());
                approver.find("#approval-comment-" + id).sendKeys("checked against CHG-9");
                approver.screenshot("approval-awaiting");
                approver.click("[data-key='approve-" + id + "']");
                approver.await(WITHIN, d -> !approver.all(view + " [data-approval-state='approved']").isEmpty());
                assertThat(approver.find(view + " [data-approval-state='approved']").getText())
                        .contains("Approved by approver").contains("checked against CHG-9");
                approver.await(WITHIN, d -> approver.find(view).getText().contains("approved by approver: checked against CHG-9"));
                assertThat(approver.all("[data-key='approve-" + id + "']")).isEmpty();
                approver.screenshot("approval-approved");
            }
            assertThat(Lanes.deployment(id).getString("state")).isEqualTo("DRAFT");
        }
    }
}
