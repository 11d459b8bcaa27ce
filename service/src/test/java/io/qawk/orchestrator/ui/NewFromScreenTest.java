package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Beginning the work from the screen, as an admin, over the real service and hawkBit: "New deployment" keeps what was
 * typed across leaving the page, shows the API's refusal at its field, shows the plan (who gets what, who is out of
 * scope and why) before anything exists, and starts it; "New manifest" offers hawkBit's sets by name:version, shows a
 * refusal at the component's field, and creates the manifest.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class NewFromScreenTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(60);

    private void openPageWith(String css) {
        browser.open(URI.create(page.toString().replace("127.0.0.1", "localhost")));
        browser.await(WITHIN, d -> !d.findElements(By.cssSelector(css)).isEmpty());
    }

    private WebElement in(String dialog, String name) {
        return browser.find(dialog + " [name='" + name + "']");
    }

    /** Replaces what a field holds by typing, as a person does (so the page hears every keystroke). */
    private static void retype(WebElement field, String text) {
        field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        field.sendKeys(text);
    }

    private String errorAt(String dialog, String name) {
        return browser.find(dialog + " .field:has(> [name='" + name + "']) > .field-error").getText();
    }

    @Test
    void aDeploymentIsPlannedBeforeAnythingExistsAndStartedFromTheForm() {
        try (Lanes lanes = new Lanes("uin-").withSetsAndType()) {
            lanes.systemOf("lane-01", "c01", "lane").systemOf("lane-02", "c02", "lane");
            lanes.discovered(2);
            int manifest = lanes.manifest("2.0", "2");
            String form = "#deployment-form-dialog";
            openPageWith("tr[data-manifest='" + manifest + "']");

            browser.click("[data-key='new-deployment']");
            browser.await(WITHIN, d -> browser.find(form).isDisplayed());
            in(form, "name").sendKeys("uin 2.0 to c02");
            new Select(in(form, "manifestId")).selectByValue(String.valueOf(manifest));
            browser.click(form + " [aria-label='Add centre c02']"); // the centres the type's systems are in
            retype(in(form, "maxParallel"), "0");

            // leaving the page keeps what was typed
            openPageWith("tr[data-manifest='" + manifest + "']");
            browser.click("[data-key='new-deployment']");
            browser.await(WITHIN, d -> browser.find(form).isDisplayed());
            assertThat(in(form, "name").getAttribute("value")).isEqualTo("uin 2.0 to c02");
            assertThat(in(form, "groups").getAttribute("value")).isEqualTo("c02");
            assertThat(in(form, "maxParallel").getAttribute("value")).isEqualTo("0");

            // the API's refusal, at its field
            browser.click("#deployment-see-plan");
            browser.await(WITHIN, d -> !errorAt(form, "maxParallel").isEmpty());
            assertThat(errorAt(form, "maxParallel")).isEqualTo("must be between 1 and 10000");
            assertThat(in(form, "maxParallel").getAttribute("aria-invalid")).isEqualTo("true");
            assertThat(errorAt(form, "name")).isEmpty();
            browser.screenshot("new-deployment-refused");

            // the plan before anything exists: who gets what, and who is left out and why
            retype(in(form, "maxParallel"), "1");
            browser.click("#deployment-see-plan");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#deployment-plan section.run[data-system='lane-02']")).isEmpty());
            assertThat(browser.find("#deployment-plan tr[data-device='uin-lane-02-lane']").getText())
                    .contains("lane").contains("2").contains("nothing").contains("uin-app:2");
            assertThat(browser.find("#deployment-plan [data-out-of-scope='lane-01']").getText())
                    .isEqualTo("lane-01 (centre c01): its centre c01 is not among the deployment's groups");
            assertThat(browser.all("#deployment-plan section.run")).hasSize(1);
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                    .getList("findAll { it.name == 'uin 2.0 to c02' }")).as("nothing created yet").isEmpty();
            browser.screenshot("new-deployment-plan");

            browser.click("[data-key='plan-start']");
            browser.await(WITHIN, d -> !browser.find(form).isDisplayed() && browser.find("#drawer").isDisplayed());
            assertThat(browser.find("#notice").getText()).isEqualTo("Deployment “uin 2.0 to c02” started.");
            int id = Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                    .getInt("find { it.name == 'uin 2.0 to c02' }.id");
            JsonPath started = Lanes.awaitState(id, "FINISHED", WITHIN);
            assertThat(started.getList("groups")).containsExactly("c02");
            assertThat(started.getInt("maxParallel")).isEqualTo(1);
            assertThat(started.getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
            assertThat(browser.find("#drawer-title").getText()).isEqualTo("uin 2.0 to c02");
            assertThat(browser.js("return localStorage.getItem('qawk.draft.admin.deployment');")).as("draft done with").isNull();
        }
    }

    /** Names that match nothing are shown in the plan before anything is created, and nothing is offered to start. */
    @Test
    void aNameThatMatchesNothingIsShownBeforeAnythingIsCreated() {
        try (Lanes lanes = new Lanes("uiu-").withSetsAndType()) {
            lanes.systemOf("lane-07", "c01", "lane");
            lanes.discovered(1);
            int manifest = lanes.manifest("2.0", "2");
            String form = "#deployment-form-dialog";
            openPageWith("tr[data-manifest='" + manifest + "']");
            browser.js("localStorage.removeItem('qawk.draft.admin.deployment');");

            browser.click("[data-key='new-deployment']");
            browser.await(WITHIN, d -> browser.find(form).isDisplayed());
            in(form, "name").sendKeys("uiu typo");
            new Select(in(form, "manifestId")).selectByValue(String.valueOf(manifest));
            in(form, "systems").sendKeys("no-such-system, lane-7");
            browser.click("#deployment-see-plan");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#deployment-plan [data-unknown='no-such-system']")).isEmpty());
            assertThat(browser.find("#deployment-plan [data-unknown='no-such-system']").getText())
                    .isEqualTo("no-such-system: no system of uiu-lane is called so");
            assertThat(browser.find("#deployment-plan [data-unknown='lane-7']").getText())
                    .isEqualTo("lane-7: no system of uiu-lane is called so; did you mean lane-07?");
            assertThat(browser.find("[data-key='plan-start']").isEnabled()).as("nothing in scope: nothing to start").isFalse();
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().statusCode(200).extract().jsonPath()
                    .getList("findAll { it.name == 'uiu typo' }")).as("nothing created").isEmpty();
            browser.screenshot("new-deployment-unknown-names");
            browser.js("localStorage.removeItem('qawk.draft.admin.deployment');");
        }
    }

    @Test
    void aManifestIsWrittenWithTheSetsHawkbitHas() {
        try (Lanes lanes = new Lanes("uim-").withSetsAndType()) {
            String form = "#manifest-form-dialog";
            openPageWith("article[data-systemtype='" + lanes.typeId + "']");

            browser.click("[data-key='new-manifest']");
            browser.await(WITHIN, d -> browser.find(form).isDisplayed());
            in(form, "name").sendKeys("uim-2.0");
            new Select(in(form, "systemTypeId")).selectByValue(String.valueOf(lanes.typeId));
            browser.await(WITHIN, d -> d.findElements(By.cssSelector(form + " tr[data-component]")).size() == 3);
            // hawkBit's sets are offered by name:version as one types
            in(form, "set-terminal").sendKeys("uim-term");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#manifest-set-options option[value='uim-term:2']")).isEmpty());
            in(form, "set-terminal").sendKeys(":2");
            in(form, "order-terminal").sendKeys("0");
            in(form, "set-display").sendKeys("uim-disp:2");
            in(form, "order-display").sendKeys("1");
            in(form, "set-lane").sendKeys("uim-app"); // a name alone: its newest set
            in(form, "order-lane").sendKeys("2");

            // the API's refusal, at the component's order
            browser.click("#manifest-submit");
            browser.await(WITHIN, d -> !errorAt(form, "order-terminal").isEmpty());
            assertThat(errorAt(form, "order-terminal")).isEqualTo("must be between 1 and 1000 (got 0)");
            assertThat(errorAt(form, "order-lane")).isEmpty();
            browser.screenshot("new-manifest-refused");

            retype(in(form, "order-terminal"), "1");
            browser.click("#manifest-submit");
            browser.await(WITHIN, d -> !browser.find(form).isDisplayed());
            assertThat(browser.find("#notice").getText()).isEqualTo("Manifest “uim-2.0” created.");
            JsonPath created = Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath().setRootPath("find { it.name == 'uim-2.0' }");
            assertThat(created.getList("components.distributionSet"))
                    .containsExactlyInAnyOrder("uim-app:2", "uim-term:2", "uim-disp:2");
            assertThat(created.getInt("components.find { it.componentType == 'lane' }.order")).isEqualTo(2);
            int id = created.getInt("id");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-manifest='" + id + "']")).isEmpty());
            assertThat(browser.find("tr[data-manifest='" + id + "']").getText())
                    .contains("order 1").contains("terminal uim-term:2").contains("display uim-disp:2")
                    .contains("order 2").contains("lane uim-app:2");

            // or pasted as Mender YAML: the import's refusal at the document, with its path
            browser.click("[data-key='new-manifest']");
            browser.await(WITHIN, d -> browser.find(form).isDisplayed());
            browser.click("[data-key='manifest-mode-yaml']");
            String yaml = """
                    api_version: mender/v1
                    kind: manifest
                    name: uim-yaml
                    system_types_compatible: [uim-lane]
                    component_types:
                      lane: { artifact_name: "uim-app:%s", update_strategy: { order: 2 } }
                    """;
            in(form, "yaml").sendKeys(yaml.formatted("9"));
            browser.click("#manifest-submit");
            browser.await(WITHIN, d -> !errorAt(form, "yaml").isEmpty());
            assertThat(errorAt(form, "yaml")).startsWith(
                    "component_types.lane.artifact_name: hawkBit has no distribution set 'uim-app:9'");
            retype(in(form, "yaml"), yaml.formatted("2"));
            browser.click("#manifest-submit");
            browser.await(WITHIN, d -> !browser.find(form).isDisplayed());
            assertThat(browser.find("#notice").getText()).isEqualTo("Manifest “uim-yaml” created from YAML.");
            Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                    .body("find { it.name == 'uim-yaml' }.components[0].distributionSet", Matchers.equalTo("uim-app:2"));
        }
    }
}
