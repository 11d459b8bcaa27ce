package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Orchestrator screen as an admin sees it, in headless Chromium, over the real service, the real hawkBit and
 * simulated lanes: the bar and words follow a running deployment, the drawer names the rolled-back system and why,
 * the system is taken again through the dialog, and a system is rolled back by hand.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class OrchestratorScreenTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    private URI page() {
        return URI.create(page.toString().replace("127.0.0.1", "localhost"));
    }

    private String words(int deploymentId) {
        return browser.find("tr[data-deployment='" + deploymentId + "'] .words").getText();
    }

    private WebElement run(String system) {
        return browser.find("#drawer section.run[data-system='" + system + "']");
    }

    /** How long a read may take while the drawer re-renders what it follows live (a found element can go stale). */
    static final Duration LIVE = Duration.ofSeconds(10);

    /** The text of {@code css} in a system's section of the drawer, found again if the drawer re-rendered meanwhile. */
    private String text(String system, String css) {
        return browser.await(LIVE, d -> run(system).findElement(By.cssSelector(css)).getText());
    }

    private static JsonPath runOf(int deploymentId, String system) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deploymentId + "/runs").then().statusCode(200)
                .extract().jsonPath().setRootPath("find { it.system == '" + system + "' }");
    }

    @Test
    void aDeploymentIsFollowedLiveAndARolledBackSystemIsTakenAgainThroughTheDialog() {
        try (Lanes lanes = new Lanes("ui-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.preinstall("1");
            lanes.behaviour("lane-02", "lane", Behaviour.failFor(lanes.set("app:2")));
            lanes.behaviour("lane-03", "lane", Behaviour.silent()); // keeps lane-03 under way until we let it go
            int manifest = lanes.manifest("2.0", "2");
            int id = Api.admin().body("{\"name\": \"ui-lanes 2.0\", \"manifestId\": " + manifest
                            + ", \"maxParallel\": 1, \"maxFailed\": 1}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");

            // the draft is listed; started from the page
            browser.open(page());
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='" + id + "']")).isEmpty());
            assertThat(words(id)).contains("draft");
            assertThat(browser.find("#who").getText()).contains("admin");
            browser.js("window.qawkNoReload = 'still the same page';");
            browser.click("[data-key='dep-" + id + "-start']");

            // the bar and the words follow it, without reloading the page
            browser.await(WITHIN, d -> words(id).contains("under way") && !d.findElements(
                    By.cssSelector("tr[data-deployment='" + id + "'] .bar [data-share='under way']")).isEmpty());
            browser.await(WITHIN, d -> words(id).equals("1 of 3 updated, 1 rolled back, 1 under way"));
            WebElement red = browser.find("tr[data-deployment='" + id + "'] .bar [data-share='rolled back']");
            assertThat(red.getAttribute("data-count")).isEqualTo("1");
            assertThat(red.getCssValue("background-image")).contains("rgb(179, 38, 30)");
            assertThat(red.getSize().getWidth()).isGreaterThan(10);
            assertThat(browser.find("tr[data-deployment='" + id + "'] .bar").getAttribute("aria-label"))
                    .isEqualTo("1 updated, 1 under way, 1 rolled back of 3 systems");
            assertThat(browser.js("return window.qawkNoReload;")).isEqualTo("still the same page");
            browser.screenshot("overview");

            // the drawer: every system; the rolled-back one in a red pill with its reason
            browser.click("[data-key='dep-open-" + id + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#drawer section.run[data-system='lane-02']")).isEmpty());
            assertThat(browser.find("#drawer").isDisplayed()).isTrue();
            assertThat(browser.all("#drawer section.run")).hasSize(3);
            assertThat(text("lane-02", ".pill")).isEqualTo("rolled back");
            assertThat(browser.<String>await(LIVE, d -> run("lane-02").findElement(By.cssSelector(".pill"))
                    .getCssValue("background-color"))).isEqualTo("rgba(179, 38, 30, 1)");
            assertThat(text("lane-02", ".reason")).isEqualTo(
                    "Why: 1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again");
            assertThat(text("lane-02", "tr[data-device='ui-lane-02-lane']")).contains("ui-app:1").contains("ui-app:2");
            assertThat(text("lane-01", ".pill")).isEqualTo("succeeded");
            assertThat(text("lane-03", ".pill")).isEqualTo("running");
            assertThat(browser.<Integer>await(LIVE, d -> run("lane-01").findElements(
                    By.xpath(".//button[normalize-space()='Take again…']")).size())).isZero();
            browser.screenshot("drawer-rolled-back");

            // its timeline is one click away
            int runId = runOf(id, "lane-02").getInt("id");
            browser.click("[data-key='run-timeline-" + runId + "']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#timeline-" + runId + " li[data-event='ROLLED_BACK']")).isEmpty());
            assertThat(browser.all("#timeline-" + runId + " li[data-event='SNAPSHOT']")).hasSize(1);

            // pause from the drawer, so that the system taken again stays pending where we can see it
            browser.click("[data-key='drawer-" + id + "-pause']");
            browser.await(WITHIN, d -> "PAUSED".equals(Lanes.deployment(id).getString("state"))
                    && !d.findElements(By.cssSelector("[data-key='drawer-" + id + "-resume']")).isEmpty());

            // take it again: the dialog says what will happen, and what to do instead
            lanes.behaviour("lane-02", "lane", Behaviour.succeed());
            browser.click("[data-key='run-retry-" + runId + "']");
            WebElement dialog = browser.find("#take-again-dialog");
            browser.await(WITHIN, d -> dialog.isDisplayed());
            assertThat(browser.driver.switchTo().activeElement().getAttribute("id")).isEqualTo("take-again-reason");
            String text = dialog.getText();
            assertThat(text).contains("Take lane-02 again?").contains("this deployment’s manifest ui-2.0")
                    .contains("From where the system is now").contains("photographed afresh")
                    .contains("fix the build").contains("make a new manifest")
                    .contains("Here 1 did");
            browser.find("#take-again-reason").sendKeys("lane 2 PSU replaced");
            browser.screenshot("take-again-dialog");
            browser.click("#take-again-confirm");
            browser.await(WITHIN, d -> !dialog.isDisplayed());
            browser.await(WITHIN, d -> run("lane-02").findElement(By.cssSelector(".pill")).getText().equals("pending"));
            assertThat(browser.find("#notice").getText()).isEqualTo(
                    "lane-02 taken again: pending (attempt 2). It is photographed afresh when it starts.");
            assertThat(browser.<String>await(LIVE, d -> run("lane-02").getText())).contains("attempt 2");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#timeline-" + runId + " li[data-event='TAKEN_AGAIN']")).isEmpty());
            browser.screenshot("taken-again-pending");
            // ... and through the API
            JsonPath again = runOf(id, "lane-02");
            assertThat(again.getString("state")).isEqualTo("PENDING");
            assertThat(again.getInt("attempt")).isEqualTo(2);
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events").then()
                    .statusCode(200).extract().jsonPath().getString("find { it.type == 'TAKEN_AGAIN' }.message"))
                    .contains("lane 2 PSU replaced");

            // resume, let lane-03 finish: everything ends updated
            lanes.behaviour("lane-03", "lane", Behaviour.succeed());
            browser.click("[data-key='drawer-" + id + "-resume']");
            browser.await(Duration.ofSeconds(180), d -> words(id).equals("3 of 3 updated, 0 rolled back"));
            assertThat(Lanes.deployment(id).getString("state")).isEqualTo("FINISHED");
            assertThat(text("lane-02", ".pill")).isEqualTo("succeeded");
            assertThat(browser.find("#drawer").isDisplayed()).as("the drawer stayed open").isTrue();
            assertThat(browser.js("return window.qawkNoReload;")).isEqualTo("still the same page");

            // roll one back by hand: a reason is required
            int lane1 = runOf(id, "lane-01").getInt("id");
            browser.click("[data-key='run-rollback-" + lane1 + "']");
            WebElement rollback = browser.find("#rollback-dialog");
            browser.await(WITHIN, d -> rollback.isDisplayed());
            browser.click("#rollback-confirm");
            assertThat(rollback.isDisplayed()).as("no reason, no rollback").isTrue();
            browser.find("#rollback-reason").sendKeys("lane 1 is not scoring");
            browser.click("#rollback-confirm");
            browser.await(WITHIN, d -> run("lane-01").findElement(By.cssSelector(".pill")).getText().equals("rolled back"));
            assertThat(text("lane-01", ".reason"))
                    .startsWith("Why: rolled back by hand (lane 1 is not scoring)");
            browser.await(WITHIN, d -> words(id).equals("2 of 3 updated, 1 rolled back"));

            // Escape closes the drawer and gives the focus back
            new Actions(browser.driver).sendKeys(Keys.ESCAPE).perform();
            browser.await(WITHIN, d -> !browser.find("#drawer").isDisplayed());
            assertThat(browser.driver.switchTo().activeElement().getAttribute("data-key")).isEqualTo("dep-open-" + id);
        }
    }

    @Test
    void theChannelsSectionAppearsOnlyWhenTheChannelsApiAnswers() throws Exception {
        browser.open(page());
        browser.await(WITHIN, d -> browser.find("#live").getText().startsWith("Live"));
        if (Api.viewer().get("/qawk/v1/fleets").statusCode() != 200) {
            assertThat(browser.find("#channels").isDisplayed()).isFalse();
        }
        String channels = """
                [{"id": 901, "name": "beta <b>x</b>", "match": "attribute.channel==beta", "promotesTo": 902,
                  "promotesToName": "prod",
                  "orchestrator": {"maxParallel": 4, "maxFailed": 1, "byCentre": true, "centres": ["c01", "c02"]},
                  "release": {"distributionSet": "app:2.0", "manifestName": "lane-2.0", "deploymentId": null,
                              "state": "HALTED", "halted": true, "haltReason": "2 systems rolled back, 1 allowed",
                              "systemsSummary": "15 of 16 systems updated, 1 rolled back",
                              "devicesSummary": "40 of 40 standalone devices on the set"},
                  "gate": {"canPromote": false, "reason": "the release is halted"}},
                 {"id": 900, "name": "dev", "match": "attribute.channel==dev", "promotesTo": 901,
                  "promotesToName": "beta <b>x</b>",
                  "orchestrator": {"maxParallel": 2, "maxFailed": 0, "byCentre": false, "centres": []},
                  "release": {"distributionSet": "app:2.0", "manifestName": "lane-2.0", "deploymentId": null,
                              "state": "COMPLETE", "halted": false, "haltReason": null,
                              "systemsSummary": "3 of 3 systems updated, 0 rolled back", "devicesSummary": null},
                  "gate": {"canPromote": true, "reason": null}}]
                """;
        List<String> posts = new CopyOnWriteArrayList<>();
        try (AuthProxy.Interception ignored = browser.intercept(page(), uri -> uri.contains("/qawk/v1/fleets"), req -> {
                    if (req.method().equals("POST")) {
                        posts.add(req.uri().replaceAll("^.*/qawk/v1", "") + " " + req.body());
                        return AuthProxy.Answer.json("{}");
                    }
                    return AuthProxy.Answer.json(channels);
                })) {
            browser.await(WITHIN, d -> browser.find("#channels").isDisplayed()
                    && !d.findElements(By.cssSelector("tr[data-fleet='901']")).isEmpty());
            WebElement beta = browser.find("tr[data-fleet='901']");
            assertThat(beta.getText()).contains("beta <b>x</b>").contains("halted")
                    .contains("15 of 16 systems updated, 1 rolled back")
                    .contains("Not promotable to prod yet: the release is halted");
            assertThat(beta.findElements(By.tagName("b"))).as("names are text, never markup").isEmpty();
            assertThat(beta.findElements(By.cssSelector("[data-release-state] .pill")))
                    .as("the release's state, one word").singleElement()
                    .satisfies(p -> assertThat(p.getText()).isEqualTo("halted"))
                    .satisfies(p -> assertThat(p.getAttribute("class")).contains("st-bad"));
            browser.screenshot("channels");

            browser.click("[data-key='fleet-promote-900']");
            browser.await(WITHIN, d -> browser.find("#confirm-dialog").isDisplayed());
            assertThat(browser.find("#confirm-dialog").getText()).contains("Promote dev's release to beta <b>x</b>?");
            browser.click("#confirm-confirm");
            browser.click("[data-key='fleet-resume-901']");
            browser.await(WITHIN, d -> browser.find("#confirm-dialog").isDisplayed());
            browser.click("#confirm-confirm");
            browser.await(WITHIN, d -> posts.size() == 2);
            assertThat(posts).containsExactly("/fleets/900/promote {\"orchestrator\":true}", "/fleets/901/resume ");
        }
    }


    /**
     * Issue 15 as the screen shows it (the deployments API answered by the test): a soaking system reads "verifying"
     * with the time it still has to stay healthy, the bar has its share, and a device that finished but has not
     * reported its verification query reads "verifying" with what it waits for.
     */
    @Test
    void aSoakingSystemReadsVerifyingWithTheTimeLeftAndADeviceWaitingToVerifySaysForWhat() throws Exception {
        String deployments = """
                [{"id": 990, "name": "lane-2.0 to c01", "manifestId": 1, "manifestName": "lane-2.0", "fleetId": null,
                  "groups": [], "systems": [], "maxParallel": 2, "maxFailed": 0, "byCentre": false,
                  "orderTimeoutSeconds": 1800, "verifyTimeoutSeconds": 300, "soakSeconds": 600, "state": "RUNNING",
                  "paused": false, "aborted": false,
                  "counts": {"systems": 2, "pending": 0, "running": 1, "verifying": 1, "rollingBack": 0, "succeeded": 0,
                             "rolledBack": 0, "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
                  "summary": "0 of 2 updated, 0 rolled back, 1 under way, 1 verifying",
                  "createdAt": "2026-12-01T10:00:00Z", "startedAt": "2026-12-01T10:00:05Z"}]
                """;
        String runs = """
                [{"id": 9901, "deploymentId": 990, "system": "lane-01", "group": "c01", "state": "VERIFYING",
                  "reason": "every component is on its set; verifying: the system must stay healthy until 10:12:00 UTC",
                  "attempt": 1, "currentOrder": 2, "soakStartedAt": "2026-12-01T10:02:00Z",
                  "soakEndsAt": "2026-12-01T10:12:00Z", "soakSecondsLeft": 125,
                  "components": {"lane": [{"controllerId": "lane-01-lane", "order": 2, "fromSet": "app:1",
                                           "toSet": "app:2", "state": "SUCCEEDED", "detail": "installed and reports attribute.app_version==2",
                                           "verify": "attribute.app_version==2", "health": "attribute.lane_state==scoring"}]}},
                 {"id": 9902, "deploymentId": 990, "system": "lane-02", "group": "c01", "state": "RUNNING",
                  "reason": null, "attempt": 1, "currentOrder": 2, "soakSecondsLeft": null,
                  "components": {"lane": [{"controllerId": "lane-02-lane", "order": 2, "fromSet": "app:1",
                                           "toSet": "app:2", "state": "VERIFYING",
                                           "detail": "installed; waiting for it to report attribute.app_version==2",
                                           "verify": "attribute.app_version==2"}]}}]
                """;
        try (AuthProxy.Interception ignored = browser.intercept(page(), uri -> uri.contains("/qawk/v1/systemdeployments"),
                req -> AuthProxy.Answer.json(req.uri().contains("/runs") ? runs : deployments))) {
            browser.open(page());
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='990']")).isEmpty());
            assertThat(words(990)).isEqualTo("0 of 2 updated, 0 rolled back, 1 under way, 1 verifying");
            assertThat(browser.find("tr[data-deployment='990'] .bar [data-share='verifying']").getAttribute("data-count"))
                    .isEqualTo("1");

            browser.click("[data-key='dep-open-990']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#drawer section.run[data-system='lane-01']")).isEmpty());
            assertThat(text("lane-01", ".run-head .pill")).isEqualTo("verifying");
            assertThat(text("lane-01", ".soak"))
                    .startsWith("3 min left of its soak: every device must keep reporting its health query");
            assertThat(browser.<String>await(LIVE, d -> run("lane-01").getText())).contains("Roll back…");
            assertThat(text("lane-02", "tr[data-device='lane-02-lane'] .pill")).isEqualTo("verifying");
            assertThat(text("lane-02", "tr[data-device='lane-02-lane']")).contains("installed; waiting for it to report attribute.app_version==2");
            browser.screenshot("verifying");
            new Actions(browser.driver).sendKeys(Keys.ESCAPE).perform();
        }
    }

    /**
     * Issue 56 as the screen shows it (the deployments API answered by the test): a held system has its share of the
     * bar and the API's words; a failed deployment says why in its words, and offers Abort only while its failures
     * left systems pending (the API refuses the abort of one with none pending, 409), saying in the dialog what it does.
     */
    @Test
    void heldSystemsAreCountedAndAFailedDeploymentOffersAbortOnlyWhenItSkipsSomething() {
        String deployments = """
                [{"id": 980, "name": "held", "manifestId": 1, "manifestName": "lane-2.0", "fleetId": null,
                  "groups": [], "systems": [], "maxParallel": 2, "maxFailed": 0, "byCentre": false, "state": "RUNNING",
                  "paused": false, "aborted": false,
                  "counts": {"systems": 3, "pending": 1, "running": 0, "verifying": 0, "rollingBack": 0, "succeeded": 2,
                             "rolledBack": 0, "rollbackFailed": 0, "skipped": 0, "givenUp": 0, "held": 1},
                  "summary": "2 of 3 updated, 0 rolled back, 1 held", "createdAt": "2026-12-01T10:00:00Z"},
                 {"id": 981, "name": "failed with one left", "manifestId": 1, "manifestName": "lane-2.0", "fleetId": null,
                  "groups": [], "systems": [], "maxParallel": 1, "maxFailed": 0, "byCentre": false, "state": "FAILED",
                  "paused": false, "aborted": false,
                  "counts": {"systems": 2, "pending": 1, "running": 0, "verifying": 0, "rollingBack": 0, "succeeded": 0,
                             "rolledBack": 1, "rollbackFailed": 0, "skipped": 0, "givenUp": 0, "held": 0},
                  "summary": "0 of 2 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started",
                  "failedBecause": "1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started",
                  "createdAt": "2026-12-01T10:00:00Z"},
                 {"id": 982, "name": "failed with none left", "manifestId": 1, "manifestName": "lane-2.0", "fleetId": null,
                  "groups": [], "systems": [], "maxParallel": 1, "maxFailed": 0, "byCentre": false, "state": "FAILED",
                  "paused": false, "aborted": false,
                  "counts": {"systems": 1, "pending": 0, "running": 0, "verifying": 0, "rollingBack": 0, "succeeded": 0,
                             "rolledBack": 1, "rollbackFailed": 0, "skipped": 0, "givenUp": 0, "held": 0},
                  "summary": "0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started",
                  "failedBecause": "1 system rolled back, maxFailed 0 allows none: no new system started",
                  "createdAt": "2026-12-01T10:00:00Z"}]
                """;
        try (AuthProxy.Interception ignored = browser.intercept(page(), uri -> uri.contains("/qawk/v1/systemdeployments"),
                req -> AuthProxy.Answer.json(req.uri().contains("/runs") ? "[]" : deployments))) {
            browser.open(page());
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='982']")).isEmpty());
            assertThat(words(980)).isEqualTo("2 of 3 updated, 0 rolled back, 1 held");
            assertThat(browser.find("tr[data-deployment='980'] .bar [data-share='held']").getAttribute("data-count"))
                    .isEqualTo("1");
            assertThat(browser.all("tr[data-deployment='980'] .bar [data-share='not started yet']")).isEmpty();
            assertThat(words(981)).endsWith("; failed: 1 system rolled back, maxFailed 0 allows none: no new system"
                    + " started, 1 not started");
            assertThat(browser.all("[data-key='dep-982-abort']")).as("nothing to abort: no Abort").isEmpty();
            browser.click("[data-key='dep-981-abort']");
            browser.await(WITHIN, d -> d.findElement(By.id("confirm-confirm")).isDisplayed());
            assertThat(browser.find("dialog[open]").getText()).contains("It failed: 1 system rolled back, maxFailed 0"
                    + " allows none: no new system started, 1 not started. Aborting skips the 1 system(s) never started"
                    + " and ends it aborted.");
            new Actions(browser.driver).sendKeys(Keys.ESCAPE).perform();
        }
    }

    @Test
    void aNarrowWindowNeedsNoSidewaysScrollingOfThePage() {
        try {
            browser.driver.manage().window().setSize(new Dimension(420, 900));
            browser.open(page());
            browser.await(WITHIN, d -> browser.find("#live").getText().startsWith("Live"));
            Number overflow = (Number) browser.js("return document.documentElement.scrollWidth - window.innerWidth;");
            assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
            browser.screenshot("narrow");
        } finally {
            browser.driver.manage().window().setSize(new Dimension(1280, 1000));
        }
    }
}
