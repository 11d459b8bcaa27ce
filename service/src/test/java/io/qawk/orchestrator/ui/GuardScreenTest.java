package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The guard and mending on the screen (issue 40), in headless Chromium over the real service, hawkBit and simulated
 * lanes, under the rule "terminal firmware 2 needs app 2": a rollout over all terminals created in hawkBit is shown on
 * the type's card after a sync (source, name, set, 3 systems, the rule's reason, watched) and in a system's view; a
 * lane broken by a set assigned by hand offers Mend… to an admin only, a 409 is shown in the API's words, and once a
 * manifest mends it the draft's plan is shown with Start; with {@code guard: hold} a switched-off auto-assignment is a
 * hold in the system's view with its reason, which an admin releases and a viewer only reads.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GuardScreenTest {

    static final Duration WITHIN = Duration.ofSeconds(120);
    static final String WHY = "fw 2 speaks only to app 2";

    @TestHTTPResource("/ui/")
    URL page;

    private Lanes lanes;
    private String p;
    private String card;
    private Browser admin;
    private Browser viewer;

    @BeforeEach
    void threeLanesOnOne() {
        if (lanes != null) {
            return;
        }
        lanes = new Lanes("gscr-").withSetsAndType();
        p = lanes.prefix;
        card = "article[data-systemtype='" + lanes.typeId + "']";
        type("watch");
        List.of("s1", "s2", "s3").forEach(s -> lanes.system(s, "c01"));
        lanes.discovered(3);
        lanes.preinstall("1");
        Lanes.sync();
        admin = Browser.start("admin", Api.ADMIN_PASSWORD);
    }

    @AfterAll
    void stop() {
        try {
            if (admin != null) {
                admin.close();
            }
            if (viewer != null) {
                viewer.close();
            }
        } finally {
            if (lanes != null) {
                lanes.close();
            }
        }
    }

    private void type(String guard) {
        lanes.firmwareNeedsApp(WHY, guard);
    }

    private String terminals() {
        return "attribute.device_type==" + p + "terminal";
    }

    private URI ui() {
        return URI.create(page.toString().replace("127.0.0.1", "localhost"));
    }

    private String text(Browser b, String css) {
        return b.find(css).getText();
    }

    private boolean present(Browser b, String css) {
        return !b.all(css).isEmpty();
    }

    /** Opens the type's list of systems and one system's view (its devices, threats and holds). */
    private void openSystem(Browser b, String system) {
        b.await(WITHIN, d -> present(b, "[data-key='type-systems-" + lanes.typeId + "']"));
        if (b.all(card + " [data-system='" + system + "']").isEmpty()) {
            b.click("[data-key='type-systems-" + lanes.typeId + "']");
        }
        String devices = "[data-key='sys-dev-" + lanes.typeId + "/" + system + "']";
        b.await(WITHIN, d -> present(b, devices));
        if (!present(b, card + " [data-system-guard='" + system + "']")) {
            b.click(devices);
        }
        b.await(WITHIN, d -> present(b, card + " [data-system-guard='" + system + "'] h4"));
    }

    @Test
    @Order(1)
    void aRolloutOverTerminalsIsOnTheTypesCardWithTheRulesReasonAndInEachSystemsView() {
        long rollout = lanes.hawkbit.createRollout(p + "terminals-2.0", lanes.set("term:2"), terminals(), 1);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> "ready".equals(lanes.hawkbit.rollout(rollout).path("status").asText()));
        Lanes.sync();

        admin.open(ui());
        String threat = card + " [data-threats] [data-threat='rollout-" + rollout + "']";
        admin.await(WITHIN, d -> present(admin, threat));
        assertThat(text(admin, card + " [data-guard-mode]")).isEqualTo("watch");
        assertThat(text(admin, card + " [data-threat-count]")).isEqualTo("1 threat");
        assertThat(text(admin, threat + " .pill")).isEqualTo("watched");
        assertThat(text(admin, threat + " [data-threat-source]")).isEqualTo("rollout");
        assertThat(text(admin, threat + " [data-threat-name]")).isEqualTo(p + "terminals-2.0");
        assertThat(text(admin, threat + " [data-threat-set]")).isEqualTo(p + "term:2");
        assertThat(text(admin, threat + " [data-threat-systems]")).isEqualTo("3 systems");
        assertThat(text(admin, threat + " [data-threat-breaks]")).startsWith("breaks 3 of them: ")
                .contains("rules[0]", p + "term:2", p + "app:1", WHY).endsWith("(and 2 more alike)");

        openSystem(admin, "s1");
        String view = card + " [data-system-guard='s1']";
        admin.await(WITHIN, d -> present(admin, view + " [data-threat='rollout-" + rollout + "']")
                && present(admin, view + " [data-no-holds]"));
        assertThat(text(admin, view)).contains(p + "terminals-2.0", "s1 would then run", "terminal " + p + "term:2",
                "lane " + p + "app:1", WHY, "The guard has stopped nothing for this system.");
        assertThat(text(admin, card + " [data-threatened='s1']")).isEqualTo("1 threat");
        admin.screenshot("guard-threat-on-card");

        lanes.hawkbit.deleteRollout(rollout);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            assertThat(Api.viewer().get("/qawk/v1/threats?systemTypeId=" + lanes.typeId).then().statusCode(200)
                    .extract().jsonPath().getList("content.hawkbitId", Long.class)).doesNotContain(rollout);
        });
        admin.await(WITHIN, d -> !present(admin, threat) && present(admin, view + " [data-no-threats]"));
        assertThat(text(admin, card + " [data-threats]")).startsWith("No hawkBit work outside Qawk would move its systems");
        assertThat(admin.all(card + " [data-threatened]")).isEmpty();
    }

    @Test
    @Order(2)
    void aBrokenSystemOffersMendToAnAdminOnlyRefusalsInTheApisWordsThenTheDraftsPlanWithStart() {
        String term = lanes.id("s3", "term-a");
        lanes.hawkbit.assign(lanes.set("term:2"), List.of(term));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(lanes.hawkbit.installedDsId(term)).contains(lanes.set("term:2")));
        Lanes.sync();
        String mendPath = "/qawk/v1/systemtypes/" + lanes.typeId + "/systems/s3/mend";
        // no manifest yet: nothing mends it; what the API says (a 409 creates nothing) is what the screen must say
        String refusal = Api.admin().post(mendPath).then().statusCode(409).extract().path("detail");
        assertThat(refusal).startsWith("no manifest of " + p + "lane mends s3");

        admin.open(ui());
        openSystem(admin, "s3");
        String mend = "[data-key='sys-mend-" + lanes.typeId + "/s3']";
        admin.await(WITHIN, d -> present(admin, mend));
        assertThat(admin.all("[data-key^='sys-mend-" + lanes.typeId + "/']")).as("only the broken system").hasSize(1);
        admin.click(mend);
        admin.await(WITHIN, d -> admin.find("#confirm-dialog").isDisplayed());
        assertThat(text(admin, "#confirm-dialog")).contains("Mend s3?", WHY, "Nothing moves until you start it");
        admin.click("#confirm-confirm");
        admin.await(WITHIN, d -> admin.find("#notice").isDisplayed() && admin.find("#notice").getText().contains(refusal));
        assertThat(text(admin, "#notice")).isEqualTo("s3 cannot be mended: " + refusal);
        assertThat(admin.find("#drawer").isDisplayed()).isFalse();

        // a viewer sees the broken system and its reason, and is offered no Mend…
        viewer = Browser.start("viewer", Api.VIEWER_PASSWORD);
        viewer.open(ui());
        openSystem(viewer, "s3");
        viewer.await(WITHIN, d -> present(viewer, card + " [data-broken='s3']"));
        assertThat(viewer.all("[data-key^='sys-mend-']")).isEmpty();
        // read again while the view refreshes under the reader (a button read as the card is drawn anew is stale)
        viewer.await(WITHIN, d -> viewer.all(card + " button").stream().noneMatch(b -> b.getText().startsWith("Mend")));

        lanes.manifest("1.0", "1");
        admin.click(mend);
        admin.await(WITHIN, d -> admin.find("#confirm-dialog").isDisplayed());
        admin.click("#confirm-confirm");
        admin.await(WITHIN, d -> admin.find("#drawer").isDisplayed()
                && present(admin, "#drawer-body [data-mends='s3']"));
        Matcher m = Pattern.compile("#deployment-(\\d+)$").matcher(admin.driver.getCurrentUrl());
        assertThat(m.find()).as(admin.driver.getCurrentUrl()).isTrue();
        int draft = Integer.parseInt(m.group(1));
        assertThat(Lanes.deployment(draft).getString("state")).isEqualTo("DRAFT");
        assertThat(Lanes.deployment(draft).getList("systems")).containsExactly("s3");
        assertThat(text(admin, "#drawer-title")).isEqualTo("mend s3");
        assertThat(text(admin, "#drawer-body [data-mends='s3']"))
                .startsWith("Taken: it breaks a rule now and this manifest mends it: ").contains(WHY);
        assertThat(text(admin, "#drawer-body tr[data-device='" + term + "']")).contains(p + "term:2", p + "term:1");
        assertThat(text(admin, "#drawer-body")).contains("Draft: nothing has moved", p + "1.0");
        assertThat(text(admin, "#notice")).contains("mend s3", p + "1.0");
        admin.screenshot("guard-mend-plan");

        admin.click("[data-key='drawer-" + draft + "-start']");
        Lanes.awaitState(draft, "FINISHED", WITHIN);
        assertThat(Lanes.runs(draft).getString("[0].state")).isEqualTo("SUCCEEDED");
        assertThat(lanes.installedSetId(term)).isEqualTo(lanes.set("term:1"));
        Lanes.sync();
        admin.await(WITHIN, d -> !present(admin, card + " [data-broken='s3']") && !present(admin, mend));
    }

    @Test
    @Order(3)
    void withHoldASwitchedOffAutoAssignmentIsAHoldWithItsReasonThatAnAdminReleasesAndAViewerOnlyReads() {
        type("hold");
        // hawkBit assigns an auto-assigned set within seconds: what the guard stops must not have finished before it acts
        for (String s : List.of("s1", "s2", "s3")) {
            lanes.behaviour(s, "term-a", Behaviour.succeedAfter(Duration.ofSeconds(90)));
            lanes.behaviour(s, "term-b", Behaviour.succeedAfter(Duration.ofSeconds(90)));
        }
        long filter = lanes.hawkbit.createTargetFilter(p + "all terminals", terminals());
        lanes.hawkbit.autoAssign(filter, lanes.set("term:2"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Lanes.sync();
            List<Map<String, Object>> held = Api.viewer().get("/qawk/v1/threats/holds?systemTypeId=" + lanes.typeId
                    + "&system=s1").then().statusCode(200).extract().jsonPath().getList("content");
            assertThat(held).anyMatch(x -> "switched_off".equals(x.get("what")));
        });
        Map<String, Object> off = Api.viewer().get("/qawk/v1/threats/holds?systemTypeId=" + lanes.typeId + "&system=s1")
                .then().statusCode(200).extract().jsonPath().<Map<String, Object>>getList("content").stream()
                .filter(x -> "switched_off".equals(x.get("what"))).findFirst().orElseThrow();
        String reason = (String) off.get("reason");
        String hold = "[data-system-guard='s1'] [data-hold='" + off.get("id") + "']";

        admin.open(ui());
        admin.await(WITHIN, d -> present(admin, card + " [data-threat='autoAssignment-" + filter + "']"));
        assertThat(text(admin, card + " [data-guard-mode]")).isEqualTo("hold");
        String threat = card + " [data-threat='autoAssignment-" + filter + "']";
        assertThat(text(admin, threat + " .pill")).isEqualTo("held");
        assertThat(text(admin, threat + " [data-threat-source]")).isEqualTo("auto-assignment");
        assertThat(text(admin, threat + " [data-threat-name]")).isEqualTo(p + "all terminals");
        assertThat(text(admin, threat + " [data-threat-breaks]")).contains(WHY);

        viewer.open(ui());
        openSystem(viewer, "s1");
        viewer.await(WITHIN, d -> present(viewer, hold));
        assertThat(text(viewer, hold + " [data-hold-reason]")).isEqualTo(reason);
        assertThat(viewer.all("[data-key^='hold-release-']")).isEmpty();

        openSystem(admin, "s1");
        admin.await(WITHIN, d -> present(admin, hold + " [data-key='hold-release-" + off.get("id") + "']"));
        assertThat(text(admin, hold)).contains("switched off", "auto-assignment", p + "all terminals", p + "term:2");
        assertThat(text(admin, hold + " [data-hold-reason]")).isEqualTo(reason).contains(WHY);
        admin.screenshot("guard-hold");
        admin.click("[data-key='hold-release-" + off.get("id") + "']");
        admin.await(WITHIN, d -> admin.find("#confirm-dialog").isDisplayed());
        assertThat(text(admin, "#confirm-dialog")).contains("Release the hold on " + p + "all terminals?", reason);
        admin.click("#confirm-confirm");
        admin.await(WITHIN, d -> present(admin, hold + " [data-released]"));
        assertThat(text(admin, hold + " [data-released]")).startsWith("released by admin");
        assertThat(admin.all(hold + " [data-key^='hold-release-']")).isEmpty();
        assertThat(text(admin, "#notice")).isEqualTo("Hold on " + p + "all terminals released by admin.");
        assertThat(lanes.hawkbit.targetFilter(filter).path("autoAssignDistributionSet").asLong())
                .isEqualTo(lanes.set("term:2"));
        lanes.hawkbit.deleteTargetFilter(filter);
    }
}
