package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a channel's row says about issue 13's rules, in headless Chromium with the channels API answered by the test:
 * its problem devices (how many, which, why), and which revision of the manifest its release runs and whether the
 * manifest was edited since.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ChannelRowScreenTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @Test
    void aChannelRowCountsAndNamesItsProblemDevicesAndSaysWhenTheManifestWasEditedSince() throws Exception {
        String channels = """
                [{"id": 910, "name": "dev", "match": "attribute.channel==dev", "promotesTo": null,
                  "orchestrator": {"maxParallel": 2, "maxFailed": 0, "byCentre": false, "centres": []},
                  "release": {"distributionSet": "kiosk:2.0", "manifestName": "lane-2.0", "deploymentId": null,
                              "manifestRevision": 1, "manifestChangedSince": true,
                              "state": "COMPLETE", "halted": false, "haltReason": null,
                              "systemsSummary": "3 of 3 systems updated, 0 rolled back", "devicesSummary": null},
                  "gate": {"canPromote": false, "reason": "promotes to no other channel"},
                  "problemDevices": 2,
                  "problems": [
                    {"controllerId": "term-<i>9</i>", "problem": "NO_SYSTEM_KEY",
                     "why": "matches component 'terminal' of 'lane' but has no attribute.device"},
                    {"controllerId": "twin-1", "problem": "AMBIGUOUS_COMPONENT", "why": "matches more than one component"}]},
                 {"id": 911, "name": "prod", "match": "attribute.channel==prod", "promotesTo": null,
                  "orchestrator": {"maxParallel": 2, "maxFailed": 0, "byCentre": false, "centres": []},
                  "release": {"distributionSet": "kiosk:2.0", "manifestName": "lane-2.0", "deploymentId": null,
                              "manifestRevision": 3, "manifestChangedSince": false,
                              "state": "RUNNING", "halted": false, "haltReason": null,
                              "systemsSummary": "0 of 3 systems updated, 0 rolled back", "devicesSummary": null},
                  "gate": {"canPromote": false, "reason": "promotes to no other channel"},
                  "problemDevices": 0, "problems": []}]
                """;
        URI screen = URI.create(page.toString());
        try (AuthProxy.Interception ignored = browser.intercept(screen, uri -> uri.contains("/qawk/v1/fleets"),
                req -> AuthProxy.Answer.json(channels))) {
            browser.open(screen);
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-fleet='911']")).isEmpty());

            WebElement dev = browser.find("tr[data-fleet='910']");
            assertThat(dev.getText()).contains("2 problem devices").contains("rev 1").contains("edited since");
            assertThat(dev.findElements(By.tagName("i"))).as("ids are text, never markup").isEmpty();
            dev.findElement(By.cssSelector("[data-problems] summary")).click();
            assertThat(dev.findElement(By.cssSelector("[data-problems]")).getText())
                    .contains("term-<i>9</i>").contains("has no attribute.device").contains("twin-1");

            WebElement prod = browser.find("tr[data-fleet='911']");
            assertThat(prod.getText()).contains("rev 3").doesNotContain("edited since").doesNotContain("problem device");
            // the release's state is one word, coloured by what it means
            assertThat(dev.findElement(By.cssSelector("[data-release-state] .pill")).getText()).isEqualTo("complete");
            assertThat(dev.findElement(By.cssSelector("[data-release-state] .pill")).getAttribute("class"))
                    .contains("st-ok");
            assertThat(prod.findElement(By.cssSelector("[data-release-state] .pill")).getText()).isEqualTo("running");
            browser.screenshot("channel-rules");
        }
    }

}
