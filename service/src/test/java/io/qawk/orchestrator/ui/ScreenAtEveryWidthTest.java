package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The screen holds at every usual width (issue 56), in headless Chromium over the real service and hawkBit: a type
 * with health queries and a rule, whose census has a mix breaking it, opened as far as it goes (systems, a system's
 * devices, "What they run"); a deployment's drawer (devices, a timeline, maintenance windows) and its dialogs. At
 * 1280, 1440 and 1920 px every view is measured ({@link Layout}: nothing sticks out of its card), checked by axe-core
 * (0 violations) and read for times (one format, zone named; a window in its centre's zone). The address follows the
 * drawer, both ways. Every other view and dialog is checked the same way (channels, threats and holds stubbed; a
 * deployment awaiting approval): the channels and their dialogs, the guard's threats and holds and their dialogs, the
 * manifest forms, the audit listing, an ended deployment's drawer, one awaiting approval, a draft's plan — as admin, as approver (its
 * form) and, for what a reader sees, as viewer. At 1440 px the views are written to docs/screenshots — the pictures docs/ui.md shows
 * ({@link #DOCS_SCREENSHOTS}; DocsScreenshotsTest keeps the two lists equal).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ScreenAtEveryWidthTest extends ScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);
    static final List<Integer> WIDTHS = List.of(1280, 1440, 1920);
    static final int DOCS_WIDTH = 1440;
    static final Path DOCS = Path.of(System.getProperty("qawk.project.dir", ".."), "docs", "screenshots");

    /** The pictures in docs/screenshots this test writes (at {@link #DOCS_WIDTH}), by view. */
    static final List<String> DOCS_SCREENSHOTS = List.of("overview.png", "system-type.png", "system-type-opened.png", "drawer.png",
            "take-again-dialog.png", "rules-dialog.png", "new-deployment-dialog.png");

    /** A time as the screen writes it: date, time to the second, and its zone named. */
    static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}[ \u00a0](UTC|[A-Z][A-Za-z_]+/[A-Za-z_+-]+)");
    /** A maintenance window's hour, in its centre's zone, named (the API's words). */
    static final Pattern WINDOW = Pattern.compile("\\b\\d{2}:\\d{2} [A-Z][A-Za-z_]+/[A-Za-z_+-]+");
    /** What else looks like a time or a date: an hour, AM/PM, a locale's date. */
    static final Pattern OTHER_TIME = Pattern.compile("\\b\\d{1,2}:\\d{2}\\b|\\b[AP]M\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b\\d{1,2}\\.\\d{1,2}\\.\\d{4}\\b");

    static final String DEPLOYMENTS = """
            [{"id": 930, "name": "lanes 2.0 at night in every centre of the north region", "manifestId": 1,
              "manifestName": "lane-2.0-with-terminal-firmware-2-and-display-2", "fleetId": null,
              "groups": [], "systems": [], "maxParallel": 2, "maxFailed": 1, "byCentre": false, "orderTimeoutSeconds": 1800,
              "state": "RUNNING", "paused": false, "aborted": false,
              "counts": {"systems": 3, "pending": 1, "running": 0, "rollingBack": 0, "succeeded": 1, "rolledBack": 1,
                         "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
              "summary": "1 of 3 updated, 1 rolled back", "createdAt": "2026-12-01T20:00:00Z", "createdBy": "admin",
              "startedBy": "admin", "startedAt": "2026-12-01T20:01:00Z", "endedAt": null, "manifestRevision": 1,
              "manifestChangedSince": false,
              "windows": {"default": null, "centres": {
                "c01": {"schedule": "0 0 2 * * ?", "duration": "03:00", "timezone": "Europe/Berlin"}}},
              "centreWindows": [
                {"centre": "c01", "open": false, "opensAt": "2026-12-02T01:00:00Z", "closesAt": "2026-12-02T04:00:00Z",
                 "timezone": "Europe/Berlin", "words": "opens 02:00 Europe/Berlin"}],
              "waitingForWindow": 1},
             {"id": 931, "name": "displays 2.0", "manifestId": 2, "manifestName": "display-2.0", "fleetId": null,
              "groups": [], "systems": [], "maxParallel": 1, "maxFailed": 0, "byCentre": false, "orderTimeoutSeconds": 1800,
              "state": "FINISHED", "paused": false, "aborted": false,
              "counts": {"systems": 1, "pending": 0, "running": 0, "rollingBack": 0, "succeeded": 1, "rolledBack": 0,
                         "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
              "summary": "1 of 1 updated", "createdAt": "2026-12-01T18:00:00Z", "createdBy": "admin",
              "startedAt": "2026-12-01T18:01:00Z", "endedAt": "2026-12-01T18:09:00Z", "manifestRevision": 1,
              "manifestChangedSince": false}]
            """;

    static final String DEVICES = """
            {"lane": [{"controllerId": "north-c01-lane-01-scoring-computer", "order": 2, "fromSet": "lanes-app:1.9.14",
                       "toSet": "lanes-app:2.0.0-rc.3", "toSetId": 5, "state": "ROLLED_BACK",
                       "detail": "stopped reporting attribute.lane_state==scoring 0 s after the update"}],
             "terminal": [{"controllerId": "north-c01-lane-01-terminal-a", "order": 1, "fromSet": "lanes-term:1.4.0",
                           "toSet": "lanes-term:2.0.0", "toSetId": 6, "state": "ROLLED_BACK"},
                          {"controllerId": "north-c01-lane-01-terminal-b", "order": 1, "fromSet": "lanes-term:1.4.0",
                           "toSet": "lanes-term:2.0.0", "toSetId": 6, "state": "ROLLED_BACK"}],
             "display": [{"controllerId": "north-c01-lane-01-display", "order": 1, "fromSet": "lanes-disp:1.0.0",
                          "toSet": "lanes-disp:2.0.0", "toSetId": 7, "state": "ROLLED_BACK"}]}
            """;

    static final String RUNS = """
            [{"id": 9301, "deploymentId": 930, "system": "lane-01", "group": "c01", "state": "ROLLED_BACK",
              "reason": "1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again",
              "attempt": 1, "currentOrder": 2, "failedOrder": 2, "rollbackCause": "FAILURE",
              "startedAt": "2026-12-01T20:01:04Z", "endedAt": "2026-12-01T20:07:00Z", "components": %1$s},
             {"id": 9302, "deploymentId": 930, "system": "lane-02", "group": "c01", "state": "PENDING",
              "reason": "waiting for c01's window (opens 02:00 Europe/Berlin)", "attempt": 1, "currentOrder": null,
              "failedOrder": null, "rollbackCause": null, "startedAt": null, "endedAt": null, "components": {}},
             {"id": 9303, "deploymentId": 930, "system": "lane-07", "group": "c03", "state": "SUCCEEDED",
              "reason": "every component is on its set", "attempt": 1, "currentOrder": 2, "failedOrder": null,
              "rollbackCause": null, "startedAt": "2026-12-01T23:00:04Z", "endedAt": "2026-12-01T23:09:00Z",
              "components": %1$s}]
            """.formatted(DEVICES);

    static final String EVENTS = """
            [{"type": "STARTED", "at": "2026-12-01T20:01:04Z", "message": "photographed: 4 devices"},
             {"type": "DEVICE_FAILED", "at": "2026-12-01T20:05:00Z",
              "message": "north-c01-lane-01-scoring-computer stopped reporting attribute.lane_state==scoring"},
             {"type": "ROLLED_BACK", "at": "2026-12-02T01:00:00Z", "message": "4 of 4 devices on their previous set again"}]
            """;

    private String card;
    private final List<String> problems = new ArrayList<>();

    private static AuthProxy.Answer fake(AuthProxy.Seen seen) {
        String uri = seen.uri();
        if (uri.contains("/events")) {
            return AuthProxy.Answer.json(EVENTS);
        }
        if (uri.contains("/runs")) {
            return AuthProxy.Answer.json(uri.contains("/931/") ? "[]" : RUNS);
        }
        return AuthProxy.Answer.json(DEPLOYMENTS);
    }

    @Test
    void everyViewFitsItsCardsPassesAxeAndWritesTimesOneWayAtEveryWidth() {
        try (Lanes lanes = new Lanes("wid-").withSetsAndType()) {
            scene(lanes);
            URI screen = URI.create(page.toString());
            try (AuthProxy.Interception ignored = browser.intercept(screen,
                    uri -> uri.contains("/qawk/v1/systemdeployments"), ScreenAtEveryWidthTest::fake)) {
                browser.open(screen);
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='930']")).isEmpty()
                        && !d.findElements(By.cssSelector(card + " [data-census] .bar")).isEmpty());
                // the type's card with "What they run" open, its systems not
                browser.click("[data-key='type-census-" + lanes.typeId + "']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-census-list] tbody tr")).isEmpty());
                for (int width : WIDTHS) {
                    resize(width);
                    check("the type's card with what they run", width);
                    censusReads(width);
                    shot(width, "system-type.png", card);
                }
                // and opened as far as it goes: its systems, a system's devices
                browser.click("[data-key='type-systems-" + lanes.typeId + "']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-broken='lane-03']")).isEmpty());
                browser.click("[data-key='sys-dev-" + lanes.typeId + "/lane-03']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " tr[data-device]")).isEmpty());
                for (int width : WIDTHS) {
                    resize(width);
                    check("the type's card opened as far as it goes", width);
                    censusReads(width);
                    shot(width, "overview.png", null);
                    shot(width, "system-type-opened.png", null);
                }

                browser.click("[data-key='dep-open-930']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#drawer section.run[data-system='lane-01'] tr[data-device]")).isEmpty());
                browser.click("[data-key='run-timeline-9301']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("#timeline-9301 li[data-event='ROLLED_BACK']")).isEmpty());
                for (int width : WIDTHS) {
                    resize(width);
                    check("the drawer with a timeline open", width);
                    shot(width, "drawer.png", null);
                }
                // the window, in its centre's zone, named; the same instant in the timeline, in the one format
                assertThat(browser.find("#drawer [data-windows]").getText()).contains("02:00 Europe/Berlin");
                String at = browser.find("#timeline-9301 li[data-event='ROLLED_BACK'] time").getText();
                if (!TIME.matcher(at).matches()) {
                    problems.add("the drawer's timeline writes the window's opening as \"" + at + "\", not in the one format");
                }

                browser.click("[data-key='run-retry-9301']");
                browser.await(WITHIN, d -> browser.find("#take-again-dialog").isDisplayed());
                for (int width : WIDTHS) {
                    resize(width);
                    check("the take-again dialog", width);
                    shot(width, "take-again-dialog.png", null);
                }
                browser.click("#take-again-dialog [data-dialog-cancel]");
                browser.await(WITHIN, d -> !browser.find("#take-again-dialog").isDisplayed());
                browser.click("#drawer-close");
                browser.await(WITHIN, d -> !browser.find("#drawer").isDisplayed());

                browser.click("[data-key='type-rules-" + lanes.typeId + "']");
                browser.await(WITHIN, d -> browser.find("#rules-dialog").isDisplayed());
                for (int width : WIDTHS) {
                    resize(width);
                    check("the rules dialog", width);
                    shot(width, "rules-dialog.png", null);
                }
                browser.click("#rules-dialog [data-key='rules-cancel']");
                browser.await(WITHIN, d -> !browser.find("#rules-dialog").isDisplayed());

                browser.click("[data-key='new-deployment']");
                browser.await(WITHIN, d -> browser.find("#deployment-form-dialog").isDisplayed());
                browser.click("[data-key='deployment-add-window']");
                for (int width : WIDTHS) {
                    resize(width);
                    check("the new deployment dialog", width);
                    shot(width, "new-deployment-dialog.png", null);
                }
                browser.click("#deployment-form-dialog [data-key='deployment-cancel']");
            }
            assertThat(problems).as("what does not hold at every width").isEmpty();
        }
    }

    /** A deployment that needs approval, awaiting it (created by admin): its drawer shows the rule and, to an approver, the form. */
    static final String AWAITING = """
            {"id": 932, "name": "lanes 2.1 for the south region, four eyes", "manifestId": 1,
             "manifestName": "lane-2.0-with-terminal-firmware-2-and-display-2", "fleetId": 920,
             "groups": [], "systems": [], "maxParallel": 2, "maxFailed": 1, "byCentre": false, "orderTimeoutSeconds": 1800,
             "state": "AWAITING_APPROVAL", "paused": false, "aborted": false,
             "counts": {"systems": 2, "pending": 2, "running": 0, "rollingBack": 0, "succeeded": 0, "rolledBack": 0,
                        "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
             "summary": "0 of 2 updated", "createdAt": "2026-12-01T21:00:00Z", "createdBy": "admin",
             "startedAt": null, "endedAt": null, "manifestRevision": 1, "manifestChangedSince": false,
             "approval": {"required": true, "state": "awaiting",
                          "rule": "system type lane requires approval: by an approver other than admin, who created it"}}
            """;

    /** A draft (nothing moved yet): its drawer shows its plan. */
    static final String DRAFT = """
            {"id": 933, "name": "lanes 2.0 for lane-01 and lane-02 only", "manifestId": 1,
             "manifestName": "lane-2.0-with-terminal-firmware-2-and-display-2", "fleetId": null,
             "groups": ["c01"], "systems": ["lane-01", "lane-02", "lane-99"], "maxParallel": 1, "maxFailed": 0, "byCentre": false,
             "orderTimeoutSeconds": 1800, "state": "DRAFT", "paused": false, "aborted": false,
             "counts": {"systems": 0, "pending": 0, "running": 0, "rollingBack": 0, "succeeded": 0, "rolledBack": 0,
                        "rollbackFailed": 0, "skipped": 0, "givenUp": 0},
             "summary": "not started", "createdAt": "2026-12-01T22:00:00Z", "createdBy": "admin",
             "startedAt": null, "endedAt": null, "manifestRevision": 1, "manifestChangedSince": false}
            """;

    static final String PLAN = """
            {"manifest": "lane-2.0-with-terminal-firmware-2-and-display-2", "orders": [1, 2],
             "windows": {"c01": {"opensAt": "2026-12-02T01:00:00Z", "closesAt": "2026-12-02T04:00:00Z"}},
             "unknownNames": [{"name": "lane-99", "why": "no system lane-99 in centre c01 (did you mean lane-09?)"}],
             "systems": [{"system": "lane-01", "group": "c01", "held": false,
                          "waiting": "c01's window is closed (opens 02:00 Europe/Berlin)", "mends": null,
                          "devices": [{"componentType": "terminal", "controllerId": "north-c01-lane-01-terminal-a", "order": 1,
                                       "runs": "lanes-term:1.4.0", "gets": "lanes-term:2.0.0", "alreadyOnIt": false},
                                      {"componentType": "lane", "controllerId": "north-c01-lane-01-scoring-computer", "order": 2,
                                       "runs": "lanes-app:1.9.14", "gets": "lanes-app:2.0.0-rc.3", "alreadyOnIt": false},
                                      {"componentType": "display", "controllerId": "north-c01-lane-01-display", "order": 1,
                                       "runs": "lanes-disp:2.0.0", "gets": "lanes-disp:2.0.0", "alreadyOnIt": true}]}],
             "outOfScope": [{"system": "lane-02", "group": "c01", "why": "already runs the manifest: nothing to do"}]}
            """;

    /** Two channels: one whose release halted and may be promoted (with problem devices), one with no release. */
    static final String FLEETS = """
            [{"id": 920, "name": "beta-centres-of-the-north-region", "match": "attribute.channel==beta-north-region-centres",
              "promotesTo": 921, "promotesToName": "production",
              "orchestrator": {"maxParallel": 2, "maxFailed": 1, "byCentre": true, "centres": ["c01", "c02", "c03"], "soakSeconds": 600},
              "release": {"distributionSet": "lanes-app:2.0.0-rc.3", "manifestName": "lane-2.0-with-terminal-firmware-2-and-display-2",
                          "deploymentId": 931, "manifestRevision": 2, "manifestChangedSince": true,
                          "state": "HALTED", "halted": true,
                          "haltReason": "lane-01 rolled back: north-c01-lane-01-scoring-computer stopped reporting attribute.lane_state==scoring",
                          "systemsSummary": "1 of 3 systems updated, 1 rolled back", "devicesSummary": "12 of 14 standalone devices updated"},
              "gate": {"canPromote": true, "reason": null},
              "problemDevices": 1,
              "problems": [{"controllerId": "north-c09-lane-04-terminal-a", "problem": "NO_SYSTEM_KEY",
                            "why": "matches component 'terminal' of 'lane' but has no attribute.device"}]},
             {"id": 921, "name": "production", "match": "attribute.channel==production", "promotesTo": null,
              "orchestrator": {"maxParallel": 10, "maxFailed": 2, "byCentre": false, "centres": []},
              "release": null, "gate": {"canPromote": false, "reason": "promotes to no other channel"},
              "problemDevices": 0, "problems": []}]
            """;

    /** The guard's view of the type: a held rollout that would break its rule on lane-03, and its hold. */
    static String threats(int typeId) {
        return """
                {"total": 1, "lastPass": {"at": "2026-12-01T20:30:00Z", "error": null},
                 "content": [{"source": "rollout", "hawkbitId": 77, "name": "terminal firmware 1 for every north centre",
                   "status": "paused", "distributionSet": {"id": 6, "name": "lanes-term:1.4.0"}, "action": "held",
                   "systems": [{"systemTypeId": %1$d, "system": "lane-03",
                     "breaks": {"rule": 0, "reason": "lane runs lanes-app:2.0.0 (app 2 speaks the v2 terminal protocol) but terminal would run lanes-term:1.4.0"},
                     "wouldRun": {"lane": ["lanes-app:2.0.0"], "terminal": ["lanes-term:1.4.0"], "display": [null]}}]}]}
                """.formatted(typeId);
    }

    static final String HOLDS = """
            {"total": 1, "content": [{"id": 41, "what": "paused", "source": "rollout", "hawkbitId": 77,
              "name": "terminal firmware 1 for every north centre", "device": null,
              "distributionSet": {"id": 6, "name": "lanes-term:1.4.0"}, "heldAt": "2026-12-01T20:30:00Z",
              "reason": "would break the rule of lane on lane-03: app 2 speaks the v2 terminal protocol",
              "releasedAt": null, "releasedBy": null}]}
            """;

    private static AuthProxy.Answer fakeAll(AuthProxy.Seen seen) {
        String uri = seen.uri();
        if (uri.matches(".*/qawk/v1/systemdeployments/?(\\?.*)?$")) {
            return AuthProxy.Answer.json(DEPLOYMENTS.substring(0, DEPLOYMENTS.lastIndexOf(']')) + ", " + AWAITING + ", " + DRAFT + "]");
        }
        if (uri.contains("/933/plan")) {
            return AuthProxy.Answer.json(PLAN);
        }
        if (uri.contains("/933/")) {
            return AuthProxy.Answer.json("[]");
        }
        if (uri.contains("/932/runs")) {
            return AuthProxy.Answer.json("[]");
        }
        if (uri.contains("/932/events")) {
            return AuthProxy.Answer.json("""
                    [{"type": "APPROVAL_REQUESTED", "at": "2026-12-01T21:00:00Z", "message": "needs approval: created by admin"}]
                    """);
        }
        return fake(seen);
    }

    /** What else the page's requests are answered with: the channels, the guard's threats and holds. */
    private Browser faked(Browser b, URI screen, int typeId, List<AuthProxy.Interception> into) {
        into.add(b.intercept(screen, uri -> uri.contains("/qawk/v1/systemdeployments"), ScreenAtEveryWidthTest::fakeAll));
        into.add(b.intercept(screen, uri -> uri.contains("/qawk/v1/fleets"), seen -> AuthProxy.Answer.json(FLEETS)));
        into.add(b.intercept(screen, uri -> uri.contains("/qawk/v1/threats"), seen -> AuthProxy.Answer.json(
                seen.uri().contains("/threats/holds") ? HOLDS : threats(typeId))));
        return b;
    }

    /** Opens a dialog with the control {@code open}, checks it at every width, and closes it with {@code cancel}. */
    private void dialog(Browser b, String open, String dialog, String cancel, String view) {
        b.click(open);
        b.await(WITHIN, d -> !b.all(dialog).isEmpty() && b.find(dialog).isDisplayed());
        checkAtEveryWidth(b, view);
        b.click(dialog + " " + cancel);
        b.await(WITHIN, d -> !b.find(dialog).isDisplayed());
    }

    @Test
    void everyOtherViewAndDialogHoldsAtEveryWidthForAdminViewerAndApprover() {
        try (Lanes lanes = new Lanes("wia-").withSetsAndType()) {
            scene(lanes);
            int type = lanes.typeId;
            // a terminal that says no system it is in: the type's problem device
            lanes.device("loose-terminal", Map.of("device_type", "terminal", "centerid", "c01"));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Lanes.sync();
                assertThat(Api.viewer().get("/qawk/v1/systemtypes/" + type + "/problems").then().statusCode(200)
                        .extract().jsonPath().getList("content.controllerId", String.class)).contains("wia-loose-terminal");
            });
            URI screen = URI.create(page.toString());
            List<AuthProxy.Interception> intercepts = new ArrayList<>();
            try {
                faked(browser, screen, type, intercepts);
                browser.open(screen);
                // the page with its channels, the guard's threats on the type's card, a system's threats and holds
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-fleet='920']")).isEmpty()
                        && !d.findElements(By.cssSelector(card + " [data-threat-count]")).isEmpty()
                        && !d.findElements(By.cssSelector("tr[data-deployment='932']")).isEmpty());
                browser.click("[data-problems='920'] summary");
                browser.click("[data-key='type-systems-" + type + "']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='sys-dev-" + type + "/lane-03']")).isEmpty());
                browser.click("[data-key='sys-dev-" + type + "/lane-03']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-hold='41']")).isEmpty());
                browser.click("[data-key='type-problems-" + type + "']");
                browser.await(WITHIN, d -> browser.find(card).getText().contains("wia-loose-terminal"));
                checkAtEveryWidth(browser, "the channels, the guard's threats, a system's holds, the problem devices");

                // the guard's and the channels' dialogs
                dialog(browser, "[data-key='hold-release-41']", "#confirm-dialog", "[data-dialog-cancel]", "the release-a-hold dialog");
                dialog(browser, "[data-key='sys-mend-" + type + "/lane-03']", "#confirm-dialog", "[data-dialog-cancel]", "the mend dialog");
                dialog(browser, "[data-key='fleet-resume-920']", "#confirm-dialog", "[data-dialog-cancel]", "the resume-release dialog");
                dialog(browser, "[data-key='fleet-promote-920']", "#confirm-dialog", "[data-dialog-cancel]", "the promote dialog");
                dialog(browser, "[data-key='new-channel']", "#channel-form-dialog", "[data-key='channel-create-cancel']", "the new channel dialog");
                dialog(browser, "[data-key='fleet-release-920']", "#release-form-dialog", "[data-key='release-cancel']", "the set-a-release dialog");

                // the manifest forms: filled in, and Mender YAML pasted
                browser.click("[data-key='new-manifest']");
                browser.await(WITHIN, d -> browser.find("#manifest-form-dialog").isDisplayed());
                checkAtEveryWidth(browser, "the new manifest dialog (filled in)");
                browser.click("[data-key='manifest-mode-yaml']");
                browser.await(WITHIN, d -> !browser.all("#manifest-form-dialog [name=yaml]").isEmpty());
                checkAtEveryWidth(browser, "the new manifest dialog (YAML pasted)");
                browser.click("[data-key='manifest-mode-form']");
                browser.click("#manifest-form-dialog [data-key='manifest-cancel']");
                browser.await(WITHIN, d -> !browser.find("#manifest-form-dialog").isDisplayed());

                // who did what
                browser.click("[data-key='audit-toggle']");
                browser.await(WITHIN, d -> !browser.all("[data-audit-list] tbody tr").isEmpty());
                checkAtEveryWidth(browser, "the audit listing");

                // a deployment's dialogs: abort, roll a system back
                dialog(browser, "[data-key='dep-930-abort']", "#confirm-dialog", "[data-dialog-cancel]", "the abort dialog");
                browser.click("[data-key='dep-open-930']");
                browser.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='run-rollback-9303']")).isEmpty());
                dialog(browser, "[data-key='run-rollback-9303']", "#rollback-dialog", "[data-dialog-cancel]", "the roll-back dialog");
                // an ended deployment's drawer (its evidence), one awaiting approval
                browser.js("location.hash = '#deployment-931';");
                browser.await(WITHIN, d -> !browser.all("[data-key='evidence-json-931']").isEmpty());
                checkAtEveryWidth(browser, "an ended deployment's drawer with its evidence");
                browser.js("location.hash = '#deployment-932';");
                browser.await(WITHIN, d -> !browser.all("[data-approval='932'] [data-approval-state='awaiting']").isEmpty());
                checkAtEveryWidth(browser, "the drawer of a deployment awaiting approval (its creator)");
                browser.js("location.hash = '#deployment-933';");
                browser.await(WITHIN, d -> !browser.all("#drawer [data-out-of-scope='lane-02']").isEmpty());
                checkAtEveryWidth(browser, "a draft's drawer with its plan");
                browser.click("#drawer-close");

                // an approver: the approval form
                try (Browser approver = Browser.start("approver", Api.APPROVER_PASSWORD)) {
                    faked(approver, screen, type, intercepts);
                    approver.open(URI.create(screen + "#deployment-932"));
                    approver.await(WITHIN, d -> !approver.all("[data-key='approve-932']").isEmpty());
                    checkAtEveryWidth(approver, "the approver's drawer with the approval form");
                }

                // a viewer: every view it sees
                try (Browser viewer = Browser.start("viewer", Api.VIEWER_PASSWORD)) {
                    faked(viewer, screen, type, intercepts);
                    viewer.open(screen);
                    viewer.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-fleet='920']")).isEmpty()
                            && !d.findElements(By.cssSelector(card + " [data-threat-count]")).isEmpty()
                            && !d.findElements(By.cssSelector("tr[data-deployment='932']")).isEmpty());
                    viewer.click("[data-key='type-census-" + type + "']");
                    viewer.click("[data-key='type-systems-" + type + "']");
                    viewer.await(WITHIN, d -> !d.findElements(By.cssSelector("[data-key='sys-dev-" + type + "/lane-03']")).isEmpty());
                    viewer.click("[data-key='sys-dev-" + type + "/lane-03']");
                    viewer.await(WITHIN, d -> !d.findElements(By.cssSelector(card + " [data-hold='41']")).isEmpty()
                            && !d.findElements(By.cssSelector(card + " [data-census-list] tbody tr")).isEmpty());
                    viewer.click("[data-key='type-problems-" + type + "']");
                    viewer.await(WITHIN, d -> viewer.find(card).getText().contains("wia-loose-terminal"));
                    viewer.click("[data-key='audit-toggle']");
                    viewer.await(WITHIN, d -> !viewer.all("[data-audit-list] tbody tr").isEmpty());
                    checkAtEveryWidth(viewer, "the viewer's page, opened as far as it goes");
                    viewer.click("[data-key='dep-open-930']");
                    viewer.await(WITHIN, d -> !viewer.all("#drawer section.run[data-system='lane-01'] tr[data-device]").isEmpty());
                    viewer.click("[data-key='run-timeline-9301']");
                    viewer.await(WITHIN, d -> !viewer.all("#timeline-9301 li[data-event='ROLLED_BACK']").isEmpty());
                    checkAtEveryWidth(viewer, "the viewer's drawer with a timeline open");
                    viewer.js("location.hash = '#deployment-931';");
                    viewer.await(WITHIN, d -> !viewer.all("[data-key='evidence-json-931']").isEmpty());
                    checkAtEveryWidth(viewer, "the viewer's drawer of an ended deployment (its evidence)");
                    viewer.js("location.hash = '#deployment-932';");
                    viewer.await(WITHIN, d -> !viewer.all("[data-approval='932'] [data-approval-state='awaiting']").isEmpty());
                    checkAtEveryWidth(viewer, "the viewer's drawer of a deployment awaiting approval");
                    viewer.js("location.hash = '#deployment-933';");
                    viewer.await(WITHIN, d -> !viewer.all("#drawer [data-out-of-scope='lane-02']").isEmpty());
                    checkAtEveryWidth(viewer, "the viewer's drawer of a draft with its plan");
                }
            } finally {
                for (AuthProxy.Interception i : intercepts) {
                    i.close();
                }
            }
            assertThat(problems).as("what does not hold at every width").isEmpty();
        }
    }

    @Test
    void theAddressFollowsTheDrawerAndTheDrawerFollowsTheAddress() {
        URI screen = URI.create(page.toString());
        try (AuthProxy.Interception ignored = browser.intercept(screen,
                uri -> uri.contains("/qawk/v1/systemdeployments"), ScreenAtEveryWidthTest::fake)) {
            browser.open(screen);
            browser.await(WITHIN, d -> !d.findElements(By.cssSelector("tr[data-deployment='931']")).isEmpty());
            assertThat(hash()).isEmpty();

            // opening the drawer sets the address
            browser.click("[data-key='dep-open-930']");
            awaitDrawerOn("lanes 2.0 at night in every centre of the north region");
            assertThat(hash()).isEqualTo("#deployment-930");

            // back: the drawer closes; forward: it opens again
            browser.driver.navigate().back();
            browser.await(WITHIN, d -> !browser.find("#drawer").isDisplayed());
            assertThat(hash()).isEmpty();
            browser.driver.navigate().forward();
            awaitDrawerOn("lanes 2.0 at night in every centre of the north region");
            assertThat(hash()).isEqualTo("#deployment-930");

            // a pasted address: the drawer turns to that deployment, without reloading the page
            browser.js("window.qawkNoReload = 'the same page'; location.hash = '#deployment-931';");
            awaitDrawerOn("displays 2.0");
            assertThat(browser.js("return window.qawkNoReload;")).isEqualTo("the same page");

            // closing it clears the address; an address without a deployment closes it
            browser.click("#drawer-close");
            browser.await(WITHIN, d -> !browser.find("#drawer").isDisplayed());
            assertThat(hash()).isEmpty();
            browser.js("location.hash = '#deployment-930';");
            awaitDrawerOn("lanes 2.0 at night in every centre of the north region");
            browser.js("location.hash = '';");
            browser.await(WITHIN, d -> !browser.find("#drawer").isDisplayed());
        }
    }

    private String hash() {
        return (String) browser.js("return location.hash;");
    }

    private void awaitDrawerOn(String name) {
        browser.await(WITHIN, d -> browser.find("#drawer").isDisplayed()
                && browser.find("#drawer-title").getText().equals(name));
    }

    /** A type with health queries (long, as a real one has) and a rule; three lanes, one breaking the rule. */
    private void scene(Lanes lanes) {
        String p = lanes.prefix;
        Api.admin().body("""
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane",
                    "health": "attribute.lane_state==scoring;attribute.scoring_service_version==2.0.0"},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal",
                    "health": "attribute.terminal_state==ready"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}],
                 "rules": [{"if": {"lane": "%1$sapp:[2,)"}, "then": {"terminal": "%1$sterm:[2,)"},
                            "why": "app 2 speaks the v2 terminal protocol"}]}
                """.formatted(p)).put("/qawk/v1/systemtypes/" + lanes.typeId).then().statusCode(200);
        lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
        lanes.discovered(3);
        lanes.preinstall("2");
        lanes.manifest("2.0", "2");
        String term = lanes.id("lane-03", "term-a");
        lanes.hawkbit.assign(lanes.set("term:1"), List.of(term));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(lanes.hawkbit.installedDsId(term)).contains(lanes.set("term:1")));
        Lanes.sync();
        card = "article[data-systemtype='" + lanes.typeId + "']";
    }

    /** The census reads as sentences: what the broken mix runs takes at most 3 lines, never a word a line. */
    private void censusReads(int width) {
        long lines = Layout.lines(browser, card + " [data-census-list] tbody tr:last-child td:nth-child(2)");
        if (lines > 3) {
            problems.add("the census at " + width + " px: what the broken mix runs takes " + lines + " lines");
        }
    }

    private void resize(int width) {
        resize(browser, width);
    }

    private static void resize(Browser b, int width) {
        b.driver.manage().window().setSize(new Dimension(width, 1300));
        b.await(WITHIN, d -> ((Number) b.js("return window.innerWidth;")).intValue() == width);
    }

    private void check(String view, int width) {
        check(browser, view, width);
    }

    /** The view at each of the {@link #WIDTHS}, {@link #check checked}. */
    private void checkAtEveryWidth(Browser b, String view) {
        for (int width : WIDTHS) {
            resize(b, width);
            check(b, view, width);
        }
    }

    /** Measures the view, runs axe and reads its times; what fails is collected (all of it said at the end). */
    private void check(Browser b, String view, int width) {
        String at = view + " at " + width + " px: ";
        Layout.overflows(b).forEach(o -> problems.add(at + "layout: " + o));
        Axe.violations(b).forEach(v -> problems.add(at + "axe: " + v));
        times(b).forEach(t -> problems.add(at + "time: " + t));
        for (LogEntry e : b.driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getMessage().contains("Content Security Policy") || e.getMessage().contains("Content-Security-Policy")) {
                problems.add(at + "console: " + e.getMessage());
            }
        }
    }

    /** Every time the page writes (its text and its tooltips) that is not in the one format nor a window's words. */
    @SuppressWarnings("unchecked")
    private static List<String> times(Browser b) {
        List<String> texts = new ArrayList<>();
        texts.add((String) b.js("return document.body.innerText;"));
        texts.addAll((List<String>) b.js(
                "return [...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'));"));
        List<String> out = new ArrayList<>();
        boolean any = false;
        for (String text : texts) {
            Matcher full = TIME.matcher(text);
            any |= full.find();
            String rest = WINDOW.matcher(TIME.matcher(text).replaceAll("")).replaceAll("");
            Matcher other = OTHER_TIME.matcher(rest);
            while (other.find()) {
                int from = Math.max(0, other.start() - 30);
                out.add("\"" + other.group() + "\" in \"…" + rest.substring(from, Math.min(rest.length(), other.end() + 30))
                        .replace('\n', ' ') + "…\"");
            }
        }
        if (!any) {
            out.add("no time in the one format (e.g. 2026-12-07 17:12:04 UTC) anywhere on the view");
        }
        return out;
    }

    /** At the docs' width, the view (or the element {@code css} finds) into docs/screenshots. */
    private void shot(int width, String name, String css) {
        if (width != DOCS_WIDTH) {
            return;
        }
        if (name.equals("overview.png")) {
            browser.js("window.scrollTo(0, 0);");
        } else if (name.equals("system-type-opened.png")) {
            browser.js("document.querySelector(arguments[0]).scrollIntoView();", this.card);
        }
        Path taken = css == null ? browser.screenshot(name.replace(".png", ""))
                : browser.screenshotOf(css, name.replace(".png", ""));
        try {
            Files.createDirectories(DOCS);
            Files.write(DOCS.resolve(name), Files.readAllBytes(taken));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
