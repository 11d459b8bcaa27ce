package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15 against the real hawkBit, with simulated devices that report attributes: a device that finished is done
 * only once it reports what its component's verification query asks for (and the next order waits for it); a system
 * with a soak must stay healthy, every device matching its health query, for the whole soak, or it goes back.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class VerifiedUpdateEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    private static String deviceState(int deployment, String system, String component, String controllerId) {
        return runs(deployment).getString("find { it.system == '" + system + "' }.components." + component
                + ".find { it.controllerId == '" + controllerId + "' }.state");
    }

    private static JsonPath run(int deployment, String system) {
        return new JsonPath(runs(deployment).prettify()).setRootPath("find { it.system == '" + system + "' }");
    }

    private static List<Map<String, Object>> events(int deployment, int runId) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/events")
                .then().statusCode(200).extract().jsonPath().getList("");
    }

    private static Instant at(List<Map<String, Object>> events, String type) {
        return events.stream().filter(e -> type.equals(e.get("type"))).map(e -> Instant.parse((String) e.get("at")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " in " + events));
    }

    /**
     * The terminals install and one of them reports its new version at once, the other only later: the lane computer
     * is not touched until both do. It then installs "successfully" but keeps reporting the old app_version: hawkBit's
     * "finished" is not enough, the system goes back on its own and says why.
     */
    @Test
    void aLaneComputerThatFinishesButReportsTheOldVersionSendsItsSystemBackAndWaitedForItsTerminalsToVerify() {
        try (Lanes lanes = new Lanes("ver-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            String lane = lanes.id("lane-07", "lane");
            String termA = lanes.id("lane-07", "term-a");
            String termB = lanes.id("lane-07", "term-b");
            lanes.devices.reportAfterInstall(lane, lanes.prefix + "app:1", Map.of("app_version", "1"));
            lanes.devices.reportAfterInstall(termB, lanes.prefix + "term:2", Map.of("term_version", "2"));
            lanes.discovered(1);
            lanes.preinstall("1");
            await().atMost(WITHIN).until(() -> "1".equals(lanes.hawkbit.attributes(lane).get("app_version")));
            int manifest = lanes.manifest("2.0", "2", Map.of("terminal", "attribute.term_version==2",
                    "lane", "attribute.app_version==2"));

            int d = lanes.deploy(manifest, "\"verifyTimeoutSeconds\": 15");

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    "VERIFYING".equals(deviceState(d, "lane-07", "terminal", termA))
                            && "SUCCEEDED".equals(deviceState(d, "lane-07", "terminal", termB))
                            && "SUCCEEDED".equals(deviceState(d, "lane-07", "display", lanes.id("lane-07", "display"))));
            // every terminal finished in hawkBit, one of them has not said it works: the lane computer waits
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "WAITING".equals(deviceState(d, "lane-07", "lane", lane))
                            && "VERIFYING".equals(deviceState(d, "lane-07", "terminal", termA)));
            assertThat(lanes.hawkbit.actions(lane)).as("only the preinstall").hasSize(1);
            assertThat(run(d, "lane-07").getString("components.terminal.find { it.controllerId == '" + termA
                    + "' }.verify")).isEqualTo("attribute.term_version==2");

            lanes.devices.setAttributes(termA, Map.of("term_version", "2"));

            JsonPath end = awaitState(d, "FAILED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("0 of 1 updated, 1 rolled back; failed: 1 system rolled back, maxFailed 0 allows none: no new system started");
            JsonPath run = run(d, "lane-07");
            assertThat(run.getString("state")).isEqualTo("ROLLED_BACK");
            assertThat(run.getString("reason")).isEqualTo("at order 2: " + lane + " finished but does not report"
                    + " attribute.app_version==2 (reports 1) -- rolled back: 4 of 4 devices on their previous set again");
            assertThat(lanes.hawkbit.actions(lane)).as("the preinstall, ours, the way back").hasSize(3);
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                String set = role.equals("lane") ? "app" : role.startsWith("term") ? "term" : "disp";
                assertThat(lanes.installedSetId(lanes.id("lane-07", role))).as(role).isEqualTo(lanes.set(set + ":1"));
            }
            List<Map<String, Object>> events = events(d, run.getInt("id"));
            assertThat(events).extracting(e -> e.get("message")).contains(
                    "device " + termB + " reports attribute.term_version==2",
                    "device " + termA + " reports attribute.term_version==2",
                    "device " + lane + " failed: it finished but does not report attribute.app_version==2 within 15 s"
                            + " (reports 1)");
            List<Map<String, Object>> sent = events.stream().filter(e -> "ORDER_SENT".equals(e.get("type"))).toList();
            assertThat(sent).extracting(e -> e.get("message")).hasSize(2).last().isEqualTo("order 2 sent to " + lane);
            Instant termAVerified = events.stream().filter(e -> ("device " + termA + " reports attribute.term_version==2")
                    .equals(e.get("message"))).map(e -> Instant.parse((String) e.get("at"))).findFirst().orElseThrow();
            assertThat(Instant.parse((String) sent.get(1).get("at"))).as("the lane computer only after term-a verified")
                    .isAfterOrEqualTo(termAVerified);
        }
    }

    /**
     * Two systems soak for 20 s after their last order. The lane computer of one stops reporting its health attribute
     * during the soak: that whole system goes back, saying which device and when. The other stays healthy: it ends
     * succeeded once the soak is over, not before, and meanwhile reads VERIFYING with the time left.
     */
    @Test
    void aSoakOf20sSendsBackTheSystemWhoseHealthFlipsAndEndsTheSteadyOneAfterTheSoakNotBefore() {
        try (Lanes lanes = new Lanes("soak-").withSetsAndType(Map.of("lane", "attribute.lane_state==scoring"))) {
            lanes.system("lane-08", "c01").system("lane-09", "c01");
            String flips = lanes.id("lane-08", "lane");
            String steady = lanes.id("lane-09", "lane");
            lanes.devices.setAttributes(flips, Map.of("lane_state", "scoring"));
            lanes.devices.setAttributes(steady, Map.of("lane_state", "scoring"));
            lanes.discovered(2);
            lanes.preinstall("1");

            int d = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 2, \"maxFailed\": 1, \"soakSeconds\": 20");

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    runs(d).<String>getList("state").equals(List.of("VERIFYING", "VERIFYING")));
            JsonPath soaking = run(d, "lane-09");
            Instant started = Instant.parse(soaking.getString("soakStartedAt"));
            assertThat(Instant.parse(soaking.getString("soakEndsAt"))).isEqualTo(started.plusSeconds(20));
            assertThat(soaking.getLong("soakSecondsLeft")).isBetween(1L, 20L);
            assertThat(soaking.getString("reason")).startsWith("every component is on its set; verifying:");
            assertThat(Lanes.deployment(d).getString("summary")).isEqualTo("0 of 2 updated, 0 rolled back, 2 verifying");
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(RestAssured.get("/q/metrics").asString()).containsPattern("qawk_runs\\{state=\"verifying\"} [2-9]")
                            .containsPattern("qawk_soak_left_seconds [1-9]"));

            lanes.devices.setAttributes(flips, Map.of("lane_state", "idle"));

            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    "ROLLED_BACK".equals(run(d, "lane-08").getString("state")));
            assertThat(run(d, "lane-08").getString("reason")).matches(Pattern.quote(flips)
                    + " stopped reporting attribute\\.lane_state==scoring \\d+ s after the update -- rolled back:"
                    + " 4 of 4 devices on their previous set again");

            JsonPath end = awaitState(d, "FINISHED", WITHIN);
            assertThat(end.getString("summary")).isEqualTo("1 of 2 updated, 1 rolled back");
            JsonPath done = run(d, "lane-09");
            assertThat(done.getString("state")).isEqualTo("SUCCEEDED");
            assertThat(done.getString("reason")).matches("every component is on its set and the system stayed healthy"
                    + " for \\d+ s after the update");
            List<Map<String, Object>> events = events(d, done.getInt("id"));
            assertThat(Duration.between(at(events, "SOAK_STARTED"), at(events, "SUCCEEDED")))
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(20));
            assertThat(Instant.parse(done.getString("endedAt"))).isAfterOrEqualTo(started.plusSeconds(20));
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                String set = role.equals("lane") ? "app" : role.startsWith("term") ? "term" : "disp";
                assertThat(lanes.installedSetId(lanes.id("lane-09", role))).as(role).isEqualTo(lanes.set(set + ":2"));
                assertThat(lanes.installedSetId(lanes.id("lane-08", role))).as(role).isEqualTo(lanes.set(set + ":1"));
            }
            assertThat(events(d, run(d, "lane-08").getInt("id"))).extracting(e -> e.get("type"))
                    .contains("SOAK_STARTED", "SYSTEM_UNHEALTHY", "ROLLBACK_STARTED", "ROLLED_BACK");
        }
    }
}
