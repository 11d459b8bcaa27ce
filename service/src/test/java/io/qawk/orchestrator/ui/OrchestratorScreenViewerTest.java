package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A viewer's Orchestrator screen: everything to read, nothing to press that would change something. */
@QuarkusTest
@ScreenTest.SignedInAs("viewer")
@QuarkusTestResource(HawkbitTestResource.class)
class OrchestratorScreenViewerTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @Test
    void aViewerSeesEverythingButNoButtonThatChangesSomething() {
        try (Lanes lanes = new Lanes("uiv-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.behaviour("lane-01", "term-a", Behaviour.fail());
            int manifest = lanes.manifest("2.0", "2");
            int failed = lanes.deploy(manifest, "\"maxFailed\": 0");
            Lanes.awaitState(failed, "FAILED", WITHIN);
            int draft = Api.admin().body("{\"name\": \"uiv-draft\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");

            browser.open(URI.create(page.toString().replace("127.0.0.1", "localhost")));
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='" + draft + "']")).isEmpty()
                    && !d.findElements(By.cssSelector("article[data-systemtype='" + lanes.typeId + "']")).isEmpty());
            assertThat(browser.find("#who").getText()).isEqualTo("Signed in as viewer — read only: actions are hidden");
            assertThat(browser.find("tr[data-deployment='" + failed + "'] .words").getText())
                    .isEqualTo("0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started");
            // system types: components, match queries, the systems found and their devices
            WebElement type = browser.find("article[data-systemtype='" + lanes.typeId + "']");
            assertThat(type.getText()).contains("uiv-lane").contains("attribute.device_type==uiv-terminal")
                    .contains("1 system found");
            browser.click("[data-key='type-systems-" + lanes.typeId + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='sys-dev-" + lanes.typeId + "/lane-01']")).isEmpty());
            browser.click("[data-key='sys-dev-" + lanes.typeId + "/lane-01']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-device='uiv-lane-01-term-b']")).isEmpty());
            // manifests: each component's set and order
            assertThat(browser.find("tr[data-manifest='" + manifest + "']").getText())
                    .contains("order 1").contains("terminal uiv-term:2").contains("order 2").contains("lane uiv-app:2");
            assertThat(buttons()).as("buttons in the page's sections").isNotEmpty().noneMatch(t -> t.matches(
                    "(?i)^(start|pause|resume|abort|take again|roll back|promote|resume release|new deployment|new manifest).*"));
            assertThat(browser.all("[data-key='new-deployment'], [data-key='new-manifest']")).as("nothing to create").isEmpty();
            assertThat(browser.find("#deployments-actions").getText()).isEmpty();
            assertThat(browser.all("[data-key^='dep-" + draft + "-']")).as("no start/abort for the draft").isEmpty();

            browser.js("window.scrollTo(0, 0);");
            browser.screenshot("viewer");

            browser.click("[data-key='dep-open-" + failed + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#drawer section.run[data-system='lane-01'] .pill")).isEmpty());
            WebElement run = browser.find("#drawer section.run[data-system='lane-01']");
            assertThat(run.findElement(By.cssSelector(".pill")).getText()).isEqualTo("rolled back");
            assertThat(run.findElement(By.cssSelector(".reason")).getText()).contains("3 ran nothing before");
            List<String> drawerButtons = browser.all("#drawer button").stream().map(WebElement::getText).toList();
            // downloading the ended deployment's evidence record changes nothing: readers get it too (issue 42)
            assertThat(drawerButtons).containsExactlyInAnyOrder("Close (Esc)", "Timeline", "Evidence (JSON)",
                    "Evidence (CSV)");
            browser.screenshot("viewer-drawer");

            // and the API refuses what the page does not offer
            Api.viewer().post("/qawk/v1/systemdeployments/" + draft + "/start").then().statusCode(403);
            Api.admin().post("/qawk/v1/systemdeployments/" + draft + "/abort").then().statusCode(200); // leave no draft behind
        }
    }

    private List<String> buttons() {
        return browser.all("main button").stream().map(WebElement::getText).toList();
    }
}
