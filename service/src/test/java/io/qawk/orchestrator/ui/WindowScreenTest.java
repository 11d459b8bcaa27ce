package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the screen says of maintenance windows, in headless Chromium with the deployments API answered by the test
 * (in the shape {@code MaintenanceWindowEndToEndTest} reads from the real service): the row counts the systems waiting
 * for a window, the drawer gives each centre's window and the pending system's reason.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class WindowScreenTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    static final String DEPLOYMENTS = """
            [{"id": 930, "name": "lanes 2.0 at night", "manifestId": 1, "manifestName": "lane-2.0", "fleetId": null,
              "groups": [], "systems": [], "maxParallel": 2, "maxFailed": 0, "byCentre": false, "orderTimeoutSeconds": 1800,
              "state": "RUNNING", "paused": false, "aborted": false,
              "counts": {"systems": 3, "pending": 2, "running": 0, "rollingBack": 0, "succeeded": 1, "rolledBack": 0,
                         "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
              "summary": "1 of 3 updated, 0 rolled back", "createdAt": "2026-12-01T20:00:00Z", "createdBy": "admin",
              "startedAt": "2026-12-01T20:01:00Z", "endedAt": null, "manifestRevision": 1, "manifestChangedSince": false,
              "windows": {"default": null, "centres": {
                "c01": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"},
                "c03": {"schedule": "0 0 23 * * ?", "duration": "04:00", "timezone": "Europe/London"}}},
              "centreWindows": [
                {"centre": "c01", "open": false, "opensAt": "2026-12-02T01:00:00Z", "closesAt": "2026-12-02T04:00:00Z",
                 "timezone": "Europe/Berlin", "words": "opens 02:00 Europe/Berlin"},
                {"centre": "c03", "open": true, "opensAt": "2026-12-01T23:00:00Z", "closesAt": "2026-12-02T03:00:00Z",
                 "timezone": "Europe/London", "words": "open until 03:00 Europe/London"}],
              "waitingForWindow": 2}]
            """;

    static final String RUNS = """
            [{"id": 9301, "deploymentId": 930, "system": "lane-01", "group": "c01", "state": "PENDING",
              "reason": "waiting for c01's window (opens 02:00 Europe/Berlin)", "attempt": 1, "currentOrder": null,
              "failedOrder": null, "rollbackCause": null, "startedAt": null, "endedAt": null, "components": {}},
             {"id": 9302, "deploymentId": 930, "system": "lane-02", "group": "c01", "state": "PENDING",
              "reason": "waiting for c01's window (opens 02:00 Europe/Berlin)", "attempt": 1, "currentOrder": null,
              "failedOrder": null, "rollbackCause": null, "startedAt": null, "endedAt": null, "components": {}},
             {"id": 9303, "deploymentId": 930, "system": "lane-07", "group": "c03", "state": "SUCCEEDED",
              "reason": "every component is on its set", "attempt": 1, "currentOrder": 2, "failedOrder": null,
              "rollbackCause": null, "startedAt": "2026-12-01T23:00:04Z", "endedAt": "2026-12-01T23:09:00Z", "components": {}}]
            """;

    @Test
    void aDeploymentSaysHowManySystemsWaitForAWindowAndWhenEachCentresOpens() {
        URI screen = URI.create(page.toString());
        try (AuthProxy.Interception ignored = browser.intercept(screen, uri -> uri.contains("/qawk/v1/systemdeployments"),
                seen -> AuthProxy.Answer.json(seen.uri().contains("/runs") ? RUNS : DEPLOYMENTS))) {
            browser.open(screen);
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='930']")).isEmpty());

            assertThat(browser.find("tr[data-deployment='930'] [data-waiting-window]").getText())
                    .isEqualTo("2 waiting for window");
            assertThat(browser.find("tr[data-deployment='930'] [data-waiting-window]").getAttribute("title"))
                    .isEqualTo("c01: opens 02:00 Europe/Berlin");

            browser.click("[data-key='dep-open-930']");
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#drawer section.run[data-system='lane-01']")).isEmpty());
            assertThat(browser.find("#drawer [data-windows]").getText()).isEqualTo(
                    "Maintenance windows: c01 opens 02:00 Europe/Berlin · c03 open until 03:00 Europe/London");
            assertThat(browser.find("#drawer section.run[data-system='lane-01'] .reason").getText())
                    .isEqualTo("waiting for c01's window (opens 02:00 Europe/Berlin)");
            browser.screenshot("maintenance-windows");
        }
    }
}
