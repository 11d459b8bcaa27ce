package io.qawk.orchestrator.deployment.flow;

import static io.qawk.orchestrator.deployment.flow.Flow.advance;
import static io.qawk.orchestrator.deployment.flow.Flow.deployment;
import static io.qawk.orchestrator.deployment.flow.Flow.events;
import static io.qawk.orchestrator.deployment.flow.Flow.messages;
import static io.qawk.orchestrator.deployment.flow.Flow.run;
import static io.qawk.orchestrator.deployment.flow.Flow.runId;
import static io.qawk.orchestrator.deployment.flow.Flow.state;
import static io.qawk.orchestrator.deployment.flow.Flow.tick;
import static io.qawk.orchestrator.deployment.flow.Flow.tickUntil;
import static io.qawk.orchestrator.deployment.flow.Flow.types;
import static io.qawk.orchestrator.deployment.flow.Flow.watch;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Time that counts only while watched, as a flow: the clock is moved and the engine passes, no test waits. A device
 * that never reports while hawkBit answers times out on time; time paused, hawkBit unreachable, or no pass at all
 * (Qawk stopped or frozen) does not count toward a device's order timeout, its verify timeout or a system's soak, and
 * the timeline says so.
 */
@QuarkusTest
@TestProfile(FlowProfile.class)
@Tag("flow")
@ExtendWith(FlowTiming.class)
class WatchedTimeFlowTest {

    static final int ORDER_TIMEOUT_SECONDS = 90;
    static final Duration STEP = Duration.ofSeconds(10);
    static final Pattern NOT_OBSERVED = Pattern.compile("not observed \\d\\d:\\d\\d:\\d\\d–\\d\\d:\\d\\d:\\d\\d UTC"
            + " \\((.+)\\); order timeouts extended by (\\d+) (s|min)");

    @AfterEach
    void hawkbitAnswers() {
        FlowHawkbitResource.current().unavailable(false);
    }

    /** The extension a gap's entry names, in seconds. */
    private static long seconds(Matcher m) {
        return Long.parseLong(m.group(2)) * ("min".equals(m.group(3)) ? 60 : 1);
    }

    private static Optional<Matcher> notObserved(List<String> messages) {
        return messages.stream().map(NOT_OBSERVED::matcher).filter(Matcher::matches).findFirst();
    }

    private static Instant at(int deployment, String system, String type) {
        List<Map<String, Object>> events = events(deployment, runId(deployment, system)).getList("");
        return events.stream().filter(e -> type.equals(e.get("type"))).map(e -> Instant.parse((String) e.get("at")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " in " + events));
    }

    /** One system whose term-a keeps silent, order 1 sent: returns the deployment. */
    private static int silentTermA(Flow f) {
        f.withSetsAndType().system("lane-01", "c01").discovered(1);
        f.behave("lane-01", "term-a", Flow.Behaviour.silent());
        int d = f.deploy(f.manifest("2.0", "2"), "\"maxFailed\": 1, \"orderTimeoutSeconds\": " + ORDER_TIMEOUT_SECONDS);
        tickUntil(3, "order 1 sent", () -> "ASSIGNED".equals(f.deviceState(d, "lane-01", "term-a")));
        return d;
    }

    /** {@code qawk_unobserved_seconds_total} of this deployment (label {@code deployment}), if the service has it. */
    private static Optional<Double> unobservedSeconds(int deployment) {
        String scrape = Api.viewer().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^qawk_unobserved_seconds_total\\{[^}]*deployment=\"" + deployment
                + "\"[^}]*} (\\S+)$").matcher(scrape);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }

    /**
     * Moved from UnobservedTimeEndToEndTest: the rule does not make real hangs wait for ever. hawkBit answers every
     * pass, the device never reports, and it times out when its order timeout is over, nothing counted as unobserved.
     */
    @Test
    void aDeviceThatNeverReportsWhileHawkbitAnswersStillTimesOutOnTime() {
        Flow f = new Flow("fw-hang-");
        int d = silentTermA(f);
        watch(Duration.ofSeconds(ORDER_TIMEOUT_SECONDS - 10), STEP);
        assertThat(run(d, "lane-01", "state")).as("88 s of 90").isEqualTo("RUNNING");
        // back, in time to go back with the others (the assignment that times out stays silent)
        f.behave("lane-01", "term-a", Flow.Behaviour.succeed());
        watch(Duration.ofSeconds(20), STEP);
        assertThat(run(d, "lane-01", "state")).isIn("ROLLING_BACK", "ROLLED_BACK");
        Instant sent = at(d, "lane-01", "ORDER_SENT");
        Instant timedOut = at(d, "lane-01", "ROLLBACK_STARTED");

        tickUntil(10, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "reason")).startsWith("at order 1: " + f.id("lane-01", "term-a")
                + " did not finish within " + ORDER_TIMEOUT_SECONDS + " s -- rolled back");
        assertThat(Duration.between(sent, timedOut)).as("order 1 sent at %s, timed out at %s", sent, timedOut)
                .isBetween(Duration.ofSeconds(ORDER_TIMEOUT_SECONDS), Duration.ofSeconds(ORDER_TIMEOUT_SECONDS)
                        .plus(STEP));
        assertThat(notObserved(messages(d, "lane-01"))).as("no gap in a timeline hawkBit always answered").isEmpty();
        assertThat(unobservedSeconds(d)).as("qawk_unobserved_seconds_total of deployment %d", d)
                .hasValueSatisfying(s -> assertThat(s).isLessThan(5.0));
    }

    /** Moved from EngineFaultsEndToEndTest: time the deployment is paused does not count toward its order timeouts. */
    @Test
    void pausedLongerThanTheOrderTimeoutFailsNoDevice() {
        Flow f = new Flow("fw-pause-");
        int d = silentTermA(f);
        Api.admin().post("/qawk/v1/systemdeployments/" + d + "/pause").then().statusCode(200);
        watch(Duration.ofSeconds(ORDER_TIMEOUT_SECONDS + 20), STEP);
        assertThat(run(d, "lane-01", "state")).isEqualTo("RUNNING");
        Api.admin().post("/qawk/v1/systemdeployments/" + d + "/resume").then().statusCode(200);
        tick();
        f.report("lane-01", "term-a", Outcome.SUCCESS);

        tickUntil(8, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(deployment(d).getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
        assertThat(notObserved(messages(d, "lane-01"))).hasValueSatisfying(m -> assertThat(m.group(1))
                .isEqualTo("paused"));
    }

    /** hawkBit away (every request 503) for longer than the order timeout fails no device; the timeline says why. */
    @Test
    void hawkbitUnreachableLongerThanTheOrderTimeoutFailsNoDevice() {
        Flow f = new Flow("fw-away-");
        int d = silentTermA(f);
        f.hawkbit.unavailable(true);
        watch(Duration.ofSeconds(ORDER_TIMEOUT_SECONDS + 30), STEP);
        f.hawkbit.unavailable(false);
        tick();
        assertThat(run(d, "lane-01", "state")).isEqualTo("RUNNING");
        assertThat(f.deviceState(d, "lane-01", "term-a")).isEqualTo("ASSIGNED");
        f.report("lane-01", "term-a", Outcome.SUCCESS);

        tickUntil(8, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(deployment(d).getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
        assertThat(notObserved(messages(d, "lane-01"))).hasValueSatisfying(m -> {
            assertThat(m.group(1)).isEqualTo("hawkBit unreachable");
            assertThat(seconds(m)).isGreaterThanOrEqualTo(ORDER_TIMEOUT_SECONDS);
        });
    }

    /**
     * Moved from EngineFaultsEndToEndTest: the lane computer finished and waits to report its new version when hawkBit
     * goes away for longer than its verify timeout. It does not fail; its verify timeout counts on after the outage,
     * and it verifies once it reports.
     */
    @Test
    void hawkbitUnreachableLongerThanTheVerifyTimeoutFailsNoDevice() {
        Flow f = new Flow("fw-verify-");
        f.withSetsAndType().system("lane-01", "c01").discovered(1);
        int d = f.deploy(verifiedLane(f), "\"verifyTimeoutSeconds\": 60");
        tickUntil(8, "the lane computer verifying", () -> "VERIFYING".equals(f.deviceState(d, "lane-01", "lane")));
        f.hawkbit.unavailable(true);
        watch(Duration.ofSeconds(90), STEP);
        f.hawkbit.unavailable(false);
        tick();
        assertThat(f.deviceState(d, "lane-01", "lane")).as("90 s away, 60 s to verify: not failed").isEqualTo("VERIFYING");
        assertThat(types(d, "lane-01")).contains("TIMEOUTS_EXTENDED").doesNotContain("DEVICE_NOT_VERIFIED");
        watch(Duration.ofSeconds(30), STEP);
        assertThat(f.deviceState(d, "lane-01", "lane")).as("watched 30 s of 60 since").isEqualTo("VERIFYING");

        f.hawkbit.setAttribute(f.id("lane-01", "lane"), "app_version", "2");
        tickUntil(8, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(deployment(d).getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
        assertThat(types(d, "lane-01")).doesNotContain("DEVICE_NOT_VERIFIED", "ROLLBACK_STARTED");
    }

    /**
     * Moved from EngineFaultsEndToEndTest: hawkBit away during a system's soak, for longer than the soak, does not let
     * the soak end on time nobody could look at the system: it is extended by the outage, and says so.
     */
    @Test
    void hawkbitUnreachableDuringTheSoakExtendsIt() {
        Flow f = new Flow("fw-soak-");
        f.withSetsAndType().system("lane-01", "c01");
        // the lane computer is healthy while it reports it is scoring: the soak asks hawkBit
        Api.admin().contentType("application/merge-patch+json").body("""
                {"components": [
                  {"componentType": "lane", "match": "attribute.device_type==fw-soak-lane",
                   "health": "attribute.lane_state==scoring"},
                  {"componentType": "terminal", "match": "attribute.device_type==fw-soak-terminal"},
                  {"componentType": "display", "match": "attribute.device_type==fw-soak-display"}]}
                """).patch("/qawk/v1/systemtypes/" + f.typeId).then().statusCode(200);
        f.hawkbit.setAttribute(f.id("lane-01", "lane"), "lane_state", "scoring");
        f.discovered(1);
        int d = f.deploy(f.manifest("2.0", "2"), "\"soakSeconds\": 60");
        tickUntil(8, "soaking", () -> "VERIFYING".equals(run(d, "lane-01", "state")));
        Instant soakEnds = Instant.parse(run(d, "lane-01", "soakEndsAt"));
        f.hawkbit.unavailable(true);
        watch(Duration.ofSeconds(90), STEP);
        f.hawkbit.unavailable(false);
        tick();
        assertThat(run(d, "lane-01", "state")).as("the soak's end passed while hawkBit was away").isEqualTo("VERIFYING");
        assertThat(types(d, "lane-01")).contains("SOAK_EXTENDED");
        assertThat(Instant.parse(run(d, "lane-01", "soakEndsAt"))).isAfterOrEqualTo(soakEnds.plusSeconds(80));
        assertThat(messages(d, "lane-01")).anySatisfy(m -> assertThat(m).matches("not observed \\d\\d:\\d\\d:\\d\\d–"
                + "\\d\\d:\\d\\d:\\d\\d UTC \\(hawkBit unreachable\\); the soak extended by \\d+ s, to"
                + " \\d\\d:\\d\\d:\\d\\d UTC"));

        watch(Duration.ofSeconds(90), STEP);
        tickUntil(4, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(deployment(d).getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
    }

    /** A manifest whose lane computer verifies by reporting {@code app_version=2}. */
    private static int verifiedLane(Flow f) {
        return Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1},
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2, "verify": "attribute.app_version==2"}]}
                """.formatted(f.id("verified", "2.0"), f.typeId, f.set("term:2"), f.set("disp:2"), f.set("app:2")))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /**
     * No pass for five minutes (Qawk stopped, or frozen): the next observation finds a gap longer than an observation
     * is fresh, extends the order timeout by all of it and says so; the device is judged only on watched time after.
     */
    @Test
    void aStretchWithoutAPassIsNotTheDevicesTime() {
        Flow f = new Flow("fw-gap-");
        int d = silentTermA(f);
        watch(Duration.ofSeconds(20), STEP);
        advance(Duration.ofMinutes(5));
        tick();
        assertThat(run(d, "lane-01", "state")).as("5 min unwatched of a 90 s timeout").isEqualTo("RUNNING");
        assertThat(notObserved(messages(d, "lane-01"))).hasValueSatisfying(m -> assertThat(seconds(m))
                .isGreaterThanOrEqualTo(Duration.ofMinutes(5).toSeconds()));
        watch(Duration.ofSeconds(30), STEP);
        assertThat(run(d, "lane-01", "state")).as("watched less than the timeout since").isEqualTo("RUNNING");
        f.report("lane-01", "term-a", Outcome.SUCCESS);
        tickUntil(8, "finished", () -> "FINISHED".equals(state(d)));
        assertThat(run(d, "lane-01", "state")).isEqualTo("SUCCEEDED");
    }
}
