package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The views an operator needed curl for, in headless Chromium over the real service and hawkBit: a type's rules edited
 * (the API's refusal at the rule's field, then saved and shown on the card); a channel created and given a release
 * (a set hawkBit does not have said at its field before anything is sent); and who did what, filtered by actor.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ScreenViewsTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(60);

    private void openPageWith(String css) {
        browser.open(URI.create(page.toString().replace("127.0.0.1", "localhost")));
        browser.await(WITHIN, d -> !d.findElements(By.cssSelector(css)).isEmpty());
    }

    private static void retype(WebElement field, String text) {
        field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        field.sendKeys(text);
    }

    private static String errorAt(String dialog, String name) {
        return browser.find(dialog + " .field:has(> [name='" + name + "']) > .field-error").getText();
    }

    @Test
    void aTypesRulesAreEditedWithTheRefusalAtTheRulesField() {
        try (Lanes lanes = new Lanes("usr-").withSetsAndType()) {
            String p = lanes.prefix;
            String card = "article[data-systemtype='" + lanes.typeId + "']";
            openPageWith(card + " [data-rules]");
            assertThat(browser.find(card + " [data-rules]").getText()).contains("None: any mix of sets is allowed.");

            browser.click("[data-key='type-rules-" + lanes.typeId + "']");
            String dialog = "#rules-dialog";
            browser.await(WITHIN, d -> browser.find(dialog).isDisplayed());
            browser.click(dialog + " [data-key='rule-add']");
            browser.find(dialog + " [name='rules[0].if']").sendKeys("lane: " + p + "app:[2,)");
            browser.find(dialog + " [name='rules[0].then']").sendKeys("printer: " + p + "term:[2,)");
            browser.find(dialog + " [name='rules[0].why']").sendKeys("app 2 speaks the v2 terminal protocol");
            browser.click(dialog + " [data-key='rules-save']");
            browser.await(WITHIN, d -> !errorAt(dialog, "rules[0].then").isEmpty());
            // the API's words, at the field its path names
            assertThat(errorAt(dialog, "rules[0].then")).isEqualTo("'printer' is not a component of this system type"
                    + " (its components: lane, terminal, display)");
            assertThat(browser.find(dialog + " [name='rules[0].then']").getAttribute("aria-invalid")).isEqualTo("true");
            assertThat(errorAt(dialog, "rules[0].if")).isEmpty();
            assertThat(Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath().getList("rules")).isEmpty();
            browser.screenshot("rules-refused");

            retype(browser.find(dialog + " [name='rules[0].then']"), "terminal: " + p + "term:[2,)");
            browser.click(dialog + " [data-key='rules-save']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-rule='0']")).isEmpty());
            assertThat(browser.find(dialog).isDisplayed()).isFalse();
            assertThat(browser.find(card + " [data-rule='0']").getText()).isEqualTo("if lane " + p + "app:[2,) then terminal "
                    + p + "term:[2,) — app 2 speaks the v2 terminal protocol");
            JsonPath type = Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath();
            assertThat(type.getMap("rules[0].then")).isEqualTo(Map.of("terminal", p + "term:[2,)"));
            assertThat(type.getList("components.componentType")).containsExactly("lane", "terminal", "display");
        }
    }

    @Test
    void aChannelIsCreatedAndGivenAReleaseAndWhoDidItIsListed() {
        try (Lanes lanes = new Lanes("usc-").withSetsAndType()) {
            String p = lanes.prefix;
            openPageWith("[data-key='new-channel']");
            browser.await(WITHIN, d -> browser.find("[data-key='new-channel']").isDisplayed()); // once the channels answered
            browser.click("[data-key='new-channel']");
            String dialog = "#channel-form-dialog";
            browser.await(WITHIN, d -> browser.find(dialog).isDisplayed());
            browser.find(dialog + " [name='name']").sendKeys(p + "beta");
            browser.find(dialog + " [name='match']").sendKeys("attribute.channel=");
            browser.click(dialog + " [data-key='channel-create-confirm']");
            browser.await(WITHIN, d -> !errorAt(dialog, "match").isEmpty());
            String words = Api.admin().body(Map.of("name", p + "beta", "match", "attribute.channel="))
                    .post("/qawk/v1/fleets").then().statusCode(400).extract().path("errors[0].message");
            assertThat(errorAt(dialog, "match")).isEqualTo(words);
            assertThat(errorAt(dialog, "name")).isEmpty();

            retype(browser.find(dialog + " [name='match']"), "attribute.channel==" + p + "beta");
            browser.click(dialog + " [data-key='channel-create-confirm']");
            browser.await(WITHIN, d -> !d.findElements(By.xpath("//tr[@data-fleet][.//strong[text()='" + p + "beta']]")).isEmpty());
            int id = Integer.parseInt(channelId(p + "beta"));
            String row = "tr[data-fleet='" + id + "']";
            assertThat(browser.find(row).getText()).contains("no release yet");

            browser.click("[data-key='fleet-release-" + id + "']");
            String release = "#release-form-dialog";
            browser.await(WITHIN, d -> browser.find(release).isDisplayed());
            browser.find(release + " [name='distributionSetId']").sendKeys(p + "app:9");
            browser.click(release + " [data-key='release-confirm']");
            browser.await(WITHIN, d -> !errorAt(release, "distributionSetId").isEmpty());
            assertThat(errorAt(release, "distributionSetId")).isEqualTo("hawkBit has no set " + p + "app:9");
            assertThat(Lanes.channelView(id).getString("release")).isNull();

            retype(browser.find(release + " [name='distributionSetId']"), p + "app");
            browser.click(release + " [data-key='release-confirm']");
            browser.await(WITHIN, d -> browser.find(row).getText().contains("set " + p + "app:2"));
            assertThat(Lanes.channelView(id).getLong("release.distributionSetId")).isEqualTo(lanes.set("app:2"));

            // who did what: the admin's two commands, and nothing by the viewer
            browser.click("[data-key='audit-toggle']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-audit-list] tr[data-audit]")).isEmpty());
            List<String> lines = browser.all("[data-audit-list] tr[data-audit]").stream().map(WebElement::getText).toList();
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("admin").contains("create").contains("fleets/" + id));
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("admin").contains("update").contains("fleets/" + id));
            browser.find("#audit-actor").sendKeys("viewer");
            browser.click("[data-key='audit-filter']");
            browser.await(WITHIN, d -> d.findElements(By.cssSelector("[data-audit-list]")).isEmpty());
            assertThat(browser.find("#audit-body").getText()).contains("viewer has done nothing through the API yet");
            browser.screenshot("who-did-what");
        }
    }

    private static String channelId(String name) {
        List<Map<String, Object>> channels = Api.viewer().get("/qawk/v1/fleets").then().statusCode(200)
                .extract().jsonPath().getList("$");
        return String.valueOf(channels.stream().filter(c -> name.equals(c.get("name"))).findFirst().orElseThrow().get("id"));
    }
}
