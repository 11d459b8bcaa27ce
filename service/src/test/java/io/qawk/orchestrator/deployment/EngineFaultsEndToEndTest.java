package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.hostile.HostileProfile;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14 against the real hawkBit, behind {@link HawkbitProxy}: hawkBit away (every request hangs, as with SIGSTOP)
 * for longer than the order timeout while order 1 is out fails no device, readiness says so all that time, and the
 * deployment finishes once hawkBit answers. What does not need a real hang is proven as a flow, in seconds, in
 * {@code deployment/flow}: the verify timeout and the soak extended by an outage, paused time, a device timed out named
 * as such, an assignment hawkBit refuses ({@code WatchedTimeFlowTest}, {@code OrdersFlowTest}).
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
class EngineFaultsEndToEndTest {

    static final int ORDER_TIMEOUT_SECONDS = 10;
    static final Duration OUTAGE = Duration.ofSeconds(25);
    static final List<String> ORDER_1 = List.of("term-a", "term-b", "display");

    @BeforeEach
    @AfterEach
    void hawkbitAnswers() {
        HawkbitProxy.heal();
    }

    private static int readiness() {
        return RestAssured.given().get("/q/health/ready").then().extract().statusCode();
    }

    private static JsonPath events(int deploymentId, int runId) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deploymentId + "/runs/" + runId + "/events")
                .then().statusCode(200).extract().jsonPath();
    }

    private static String deviceState(int deploymentId, String system, String component, String controllerId) {
        return runs(deploymentId).getString("find { it.system == '" + system + "' }.components." + component
                + ".find { it.controllerId == '" + controllerId + "' }.state");
    }

    /**
     * hawkBit stops answering (every request hangs, as with SIGSTOP) for longer than the order timeout while order 1 is
     * out in two systems. Its devices stand for devices that cannot reach hawkBit either: they are silent until hawkBit
     * is back and report a few seconds later, after the engine has looked at them again. Nothing may fail.
     */
    @Test
    void hawkbitAwayWhileOrder1IsOutFailsNothing() {
        try (Lanes away = new Lanes("ef-away-").withSetsAndType()) {
            away.system("lane-01", "c01").system("lane-02", "c01");
            away.discovered(2);
            away.preinstall("1");
            List<String> order1 = Stream.of("lane-01", "lane-02")
                    .flatMap(s -> ORDER_1.stream().map(r -> away.id(s, r))).toList();
            order1.forEach(id -> away.devices.setBehaviour(id, Behaviour.silent()));
            assertThat(readiness()).isEqualTo(200);

            int a = away.deploy(away.manifest("2.0", "2"), "\"maxParallel\": 2, \"maxFailed\": 1, \"orderTimeoutSeconds\": "
                    + ORDER_TIMEOUT_SECONDS);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> order1.stream()
                    .allMatch(d -> "ASSIGNED".equals(deviceState(a, d.contains("lane-01") ? "lane-01" : "lane-02",
                            d.endsWith("display") ? "display" : "terminal", d))));

            // longer than the timeout by more than a slow pass takes, so that it would run out in it: for all of it
            // readiness is down and no run fails or goes back
            Duration lasted = outage(OUTAGE, () -> runs(a).<String>getList("state").stream().allMatch("RUNNING"::equals));
            assertThat(lasted).isGreaterThan(Duration.ofSeconds(2L * ORDER_TIMEOUT_SECONDS));
            order1.forEach(d -> away.devices.setBehaviour(d, Behaviour.succeedAfter(Duration.ofSeconds(6))));

            JsonPath done = awaitState(a, "FINISHED", Duration.ofSeconds(120));
            assertThat(done.getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            JsonPath runs = runs(a);
            for (String system : List.of("lane-01", "lane-02")) {
                assertThat(runs.getString("find { it.system == '" + system + "' }.state")).isEqualTo("SUCCEEDED");
                JsonPath events = events(a, runs.getInt("find { it.system == '" + system + "' }.id"));
                assertThat(events.<String>getList("type")).doesNotContain("ROLLBACK_STARTED", "DEVICE_FAILED");
                assertThat(events.<String>getList("message")).anySatisfy(m -> assertThat(m)
                        .matches("not observed \\d\\d:\\d\\d:\\d\\d–\\d\\d:\\d\\d:\\d\\d UTC \\(hawkBit unreachable\\);"
                                + " order timeouts extended by \\d+ s"));
                for (String role : List.of("lane", "term-a", "term-b", "display")) {
                    String set = role.equals("lane") ? "app" : role.startsWith("term") ? "term" : "disp";
                    assertThat(away.installedSetId(away.id(system, role))).as(role).isEqualTo(away.set(set + ":2"));
                }
            }
        }
    }

    /**
     * hawkBit answers nothing for {@code length}, readiness says so, and {@code meanwhile} holds all that time; then it
     * answers again and readiness says so. Returns how long it answered nothing.
     */
    private static Duration outage(Duration length, Callable<Boolean> meanwhile) {
        HawkbitProxy.blackHole();
        Instant down = Instant.now();
        await().atMost(Duration.ofSeconds(15)).until(() -> readiness() == 503);
        await().during(length.minus(Duration.between(down, Instant.now()))).atMost(length.plusSeconds(15))
                .pollInterval(Duration.ofSeconds(1)).until(() -> readiness() == 503 && meanwhile.call());
        HawkbitProxy.heal();
        Duration lasted = Duration.between(down, Instant.now());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 200);
        return lasted;
    }
}
