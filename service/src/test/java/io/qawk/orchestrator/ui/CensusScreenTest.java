package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The census and drift on the screen, in headless Chromium over the real service, hawkBit and simulated lanes: the
 * system type card shows what its systems run as a bar (a share per manifest, untested mixes, and those breaking a
 * rule in red) with the list of mixes a click away; a system's row says what it runs, and a system whose terminal was
 * given the old firmware by hand in hawkBit is shown broken in red, with the devices and the rule's why.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class CensusScreenTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);
    static final String WHY = "app 2 speaks the v2 terminal protocol";

    @Test
    void aSystemBreakingARuleIsRedOnItsRowAndInItsTypesCensus() {
        try (Lanes lanes = new Lanes("cen-").withSetsAndType()) {
            String p = lanes.prefix;
            lanes.appNeedsTerminal(WHY);
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.preinstall("2");
            lanes.manifest("2.0", "2");
            // a technician gives lane-03's first terminal the old firmware directly in hawkBit
            String term = lanes.id("lane-03", "term-a");
            lanes.hawkbit.assign(lanes.set("term:1"), List.of(term));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.installedDsId(term)).contains(lanes.set("term:1")));
            Lanes.sync();

            browser.open(URI.create(page.toString().replace("127.0.0.1", "localhost")));
            String card = "article[data-systemtype='" + lanes.typeId + "']";
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-census] .bar")).isEmpty());
            assertThat(browser.find(card + " [data-census] .words").getText())
                    .isEqualTo("2 on " + p + "2.0, 1 breaking a rule");
            WebElement red = browser.find(card + " [data-census] .bar [data-share='breaking a rule']");
            assertThat(red.getAttribute("data-count")).isEqualTo("1");
            assertThat(red.getCssValue("background-image")).contains("rgb(179, 38, 30)");
            assertThat(browser.find(card + " [data-type-broken]").getText()).isEqualTo("1 breaking a rule");

            browser.click("[data-key='type-census-" + lanes.typeId + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-census-list] tbody tr")).isEmpty());
            List<WebElement> mixes = browser.all(card + " [data-census-list] tbody tr");
            assertThat(mixes).hasSize(2);
            assertThat(mixes.get(1).getText()).contains("terminal " + p + "term:1, " + p + "term:2").contains(WHY);
            // each mix's configuration id (issue 42), as the API names it, in a form an operator can quote
            List<String> mixIds = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/versions").then()
                    .statusCode(200).extract().jsonPath().getList("content.configurationId", String.class);
            assertThat(mixIds).hasSize(2).allSatisfy(id -> assertThat(id).matches("[0-9a-f]{12}"));
            for (int i = 0; i < 2; i++) {
                WebElement id = mixes.get(i).findElement(By.cssSelector("[data-configuration-id]"));
                assertThat(id.getText()).as("mix %d's configuration id", i).isEqualTo(mixIds.get(i));
                assertThat(id.getAttribute("title")).startsWith("Configuration id");
                assertThat(id.getCssValue("font-family")).contains("monospace");
            }

            browser.click("[data-key='type-systems-" + lanes.typeId + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-broken='lane-03']")).isEmpty());
            WebElement pill = browser.find(card + " [data-broken='lane-03']");
            assertThat(pill.getText()).isEqualTo("broken");
            assertThat(pill.getCssValue("background-color")).isEqualTo("rgba(179, 38, 30, 1)");
            assertThat(browser.find(card + " td[data-runs='lane-03']").getText()).contains(lanes.id("lane-03", "lane")
                    + " runs " + p + "app:2 with " + term + " on " + p + "term:1").contains(WHY);
            assertThat(browser.find(card + " td[data-runs='lane-01']").getText()).isEqualTo("on " + p + "2.0");
            assertThat(browser.all(card + " [data-broken]")).hasSize(1);
            // on each system's row its configuration id: the two on the manifest share one, the broken one has its own
            assertThat(browser.find(card + " td[data-configuration='lane-01']").getText()).isEqualTo(mixIds.get(0));
            assertThat(browser.find(card + " td[data-configuration='lane-02']").getText()).isEqualTo(mixIds.get(0));
            assertThat(browser.find(card + " td[data-configuration='lane-03']").getText()).isEqualTo(mixIds.get(1));
            // and in the system's view, with the words that say what it is
            browser.click("[data-key='sys-dev-" + lanes.typeId + "/lane-03']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-system-configuration]")).isEmpty());
            assertThat(browser.find(card + " [data-system-configuration]").getText())
                    .startsWith("Configuration id " + mixIds.get(1));
            browser.screenshot("census-and-drift");
        }
    }

    @Test
    void whatLanesOnTheirFactorySetsRunIsSavedAsABaselineFromTheCensus() {
        try (Lanes lanes = new Lanes("cbs-").withSetsAndType()) {
            String p = lanes.prefix;
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            Lanes.sync();

            browser.open(URI.create(page.toString().replace("127.0.0.1", "localhost")));
            String card = "article[data-systemtype='" + lanes.typeId + "']";
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-census] .bar")).isEmpty());
            // what is known, in words: no manifest names what they run, and where to save it
            assertThat(browser.find(card + " [data-census] .words").getText()).isEqualTo("2 on a mix no manifest names");
            assertThat(browser.find(card + " [data-census-hint]").getText())
                    .isEqualTo("No manifest names what 2 of them run: under “What they run”, save a mix as a manifest"
                            + " (a baseline) and they are on it.");
            browser.click("[data-key='type-census-" + lanes.typeId + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-census-list] tbody tr")).isEmpty());
            assertThat(browser.find(card + " [data-census-list] tr[data-mix='0'] [data-known]").getText())
                    .isEqualTo("no manifest names it (the type has no rules to check it against)");

            browser.click("[data-key='census-save-" + lanes.typeId + "-0']");
            String dialog = "#census-save-dialog";
            browser.await(WITHIN, d -> browser.find(dialog).isDisplayed());
            assertThat(browser.find(dialog).getText()).contains("2 system(s) of " + p + "lane run display " + p + "disp:1 · lane " + p + "app:1")
                    .contains("Nothing is assigned to any device");
            // the API's refusal stays in the dialog, at the name
            WebElement name = browser.find(dialog + " [name='name']");
            name.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
            browser.click(dialog + " [data-key='census-save-confirm']");
            String error = dialog + " .field:has(> [name='name']) > .field-error";
            browser.await(WITHIN, d -> !browser.find(error).getText().isEmpty());
            assertThat(name.getAttribute("aria-invalid")).isEqualTo("true");
            assertThat(Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath().getList("name")).isEmpty();

            name.sendKeys(p + "baseline");
            browser.click(dialog + " [data-key='census-save-confirm']");
            browser.await(WITHIN, d -> browser.find(card + " [data-census] .words").getText()
                    .equals("2 on " + p + "baseline"));
            assertThat(browser.find(dialog).isDisplayed()).isFalse();
            assertThat(browser.find("#notice").getText()).isEqualTo("Manifest “" + p + "baseline” saved: the 2 system(s)"
                    + " running that mix are on it.");
            assertThat(browser.all(card + " [data-census-hint]")).isEmpty();
            assertThat(Api.viewer().get("/qawk/v1/manifests?systemTypeId=" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath().getList("components.distributionSet.flatten()"))
                    .containsExactlyInAnyOrder(p + "app:1", p + "term:1", p + "disp:1");
            browser.screenshot("census-saved-as-baseline");
        }
    }
}
