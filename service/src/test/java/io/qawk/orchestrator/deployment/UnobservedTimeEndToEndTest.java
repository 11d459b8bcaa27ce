package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.ProcessFreeze;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 32 against the real hawkBit, frozen with SIGSTOP (the kernel still accepts its connections, nothing answers)
 * and the service's <em>default</em> hawkBit client (30 s read timeout, retries): a call that hangs and then answers is
 * not a failed call, so nothing here is "hawkBit unreachable" in the old sense. A device's order timeout, its verify
 * timeout and a system's soak count only time for which Qawk held a fresh observation of it; readiness says hawkBit is
 * down while its calls hang. That a device that really hangs while hawkBit answers still times out on time needs no
 * real hawkBit: it is a flow test ({@code deployment/flow/WatchedTimeFlowTest}).
 * <p>
 * The hawkBit is the JVM's shared one ({@link SharedHawkbit}): every freeze is undone in a try-with-resources, and
 * kept as short as the rule it shows allows.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class UnobservedTimeEndToEndTest {

    static final int ORDER_TIMEOUT_SECONDS = 10;
    /** Longer than the order timeout by far, shorter than the client's 30 s read timeout: the calls hang, then answer. */
    static final Duration FREEZE = Duration.ofSeconds(25);
    /** What of a freeze must show as not observed at least: the freeze less a pass and a slow machine's slack. */
    static final long COUNTED_AT_LEAST = FREEZE.toSeconds() - 8;
    static final List<String> ORDER_1 = List.of("term-a", "term-b", "display");
    static final Pattern GAP = Pattern.compile("not observed \\d\\d:\\d\\d:\\d\\d–\\d\\d:\\d\\d:\\d\\d UTC"
            + " \\(hawkBit did not answer for (\\d+) s\\); (.*)");

    /**
     * One freeze, while two deployments are under way, for longer than the order timeout, the rest of a soak and the
     * verify timeout (three freezes once, folded into one: each is 25 s of the suite):
     * <ul>
     * <li>in one, order 1 of two lanes is out and its devices are at it; they report a few seconds after hawkBit
     * answers again (they could not reach it either). Judged against deadlines that passed while nobody could look,
     * every system went back;</li>
     * <li>in the other, one system soaks and the lane computer of another has finished but not yet reported its new
     * version. The first answer after the freeze ended the soak and failed the waiting device; time nobody could look
     * at a system is not time it was healthy, so the soak ends later by the frozen time;</li>
     * <li>one pass asks for both deployments, one after the other: the first waits out the freeze, the second is asked
     * once hawkBit answers again and answers at once. Both went unobserved for hawkBit's silence and both timelines
     * say so; naming the second's gap "Qawk's passes were held up" sent an operator looking at Qawk for what hawkBit
     * did.</li>
     * </ul>
     */
    @Test
    void hawkbitFrozenWhileOrder1IsOutInOneDeploymentAndAnotherSoaksRollsNothingBackAndBothTimelinesNameHawkbit() {
        try (Lanes order = new Lanes("uo-freeze-").withSetsAndType();
                Lanes soak = new Lanes("uo-soak-").withSetsAndType(Map.of("lane", "attribute.lane_state==scoring"))) {
            soak.system("lane-01", "c01").system("lane-02", "c01");
            String soaks = soak.id("lane-01", "lane");
            String waits = soak.id("lane-02", "lane");
            soak.devices.setAttributes(soaks, Map.of("lane_state", "scoring"));
            soak.devices.setAttributes(waits, Map.of("lane_state", "scoring"));
            soak.discovered(2);
            soak.preinstall("1");
            soak.devices.reportAfterInstall(soaks, soak.prefix + "app:2", Map.of("app_version", "2"));
            order.system("lane-01", "c01").system("lane-02", "c01");
            order.discovered(2);
            order.preinstall("1");
            List<String> order1 = Stream.of("lane-01", "lane-02")
                    .flatMap(s -> ORDER_1.stream().map(r -> order.id(s, r))).toList();
            order1.forEach(d -> order.devices.setBehaviour(d, Behaviour.silent()));

            // the soak first (long enough for the other deployment to send order 1 before it ends), then order 1
            int soakId = soak.deploy(soak.manifest("2.0", "2", Map.of("lane", "attribute.app_version==2")),
                    "\"maxParallel\": 2, \"verifyTimeoutSeconds\": 20, \"soakSeconds\": 16");
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> "VERIFYING".equals(runs(soakId).getString(run("lane-01") + ".state"))
                            && "VERIFYING".equals(deviceState(soakId, waits)));
            Instant soakEnds = Instant.parse(runs(soakId).getString(run("lane-01") + ".soakEndsAt"));
            int orderId = order.deploy(order.manifest("2.0", "2"), "\"maxParallel\": 2, \"orderTimeoutSeconds\": "
                    + ORDER_TIMEOUT_SECONDS);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> order1.stream().allMatch(d -> "ASSIGNED".equals(deviceState(orderId, d))));

            Duration frozen;
            try (ProcessFreeze freeze = SharedHawkbit.get().freeze()) {
                // the API reads Postgres only: it answers while hawkBit is frozen, and nothing is judged meanwhile
                await().during(FREEZE).atMost(FREEZE.plusSeconds(20)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> runs(orderId).<String>getList("state").stream().allMatch("RUNNING"::equals)
                                && "VERIFYING".equals(runs(soakId).getString(run("lane-01") + ".state"))
                                && "VERIFYING".equals(deviceState(soakId, waits)));
                frozen = freeze.length();
            }
            order1.forEach(d -> order.devices.setBehaviour(d, Behaviour.succeedAfter(Duration.ofSeconds(2))));
            // the lane computer reports its version once hawkBit answers again, as a device that reconnects does
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 200);
            soak.devices.setAttributes(waits, Map.of("app_version", "2"));

            JsonPath orderDone = finished(orderId, Duration.ofSeconds(150));
            JsonPath soakDone = finished(soakId, Duration.ofSeconds(150));
            SoftAssertions soft = new SoftAssertions();
            JsonPath runs = runs(orderId);
            soft.assertThat(orderDone.getString("summary")).as("frozen %d s against a %d s order timeout; runs: %s",
                    frozen.toSeconds(), ORDER_TIMEOUT_SECONDS, reasons(runs)).isEqualTo("2 of 2 updated, 0 rolled back");
            for (String system : List.of("lane-01", "lane-02")) {
                soft.assertThat(runs.getString(run(system) + ".state")).as(system).isEqualTo("SUCCEEDED");
                List<String> messages = messages(orderId, runs.getInt(run(system) + ".id"));
                soft.assertThat(types(orderId, runs.getInt(run(system) + ".id"))).as(system)
                        .doesNotContain("ROLLBACK_STARTED", "DEVICE_FAILED");
                Optional<Matcher> gap = gap(messages);
                soft.assertThat(gap).as("%s's timeline names hawkBit's silence: %s", system, messages).isPresent();
                gap.ifPresent(m -> {
                    soft.assertThat(Long.parseLong(m.group(1))).as("seconds hawkBit did not answer")
                            .isBetween(COUNTED_AT_LEAST, frozen.toSeconds() + 5);
                    soft.assertThat(m.group(2)).as("what the gap did").matches("order timeouts extended by \\d+ s");
                });
            }
            soft.assertThat(unobservedSeconds(orderId)).as("qawk_unobserved_seconds_total of deployment %d", orderId)
                    .hasValueSatisfying(s -> assertThat(s).isGreaterThanOrEqualTo(COUNTED_AT_LEAST));

            runs = runs(soakId);
            soft.assertThat(soakDone.getString("summary")).as("frozen %d s; runs: %s", frozen.toSeconds(),
                    reasons(runs)).isEqualTo("2 of 2 updated, 0 rolled back");
            soft.assertThat(types(soakId, runs.getInt(run("lane-02") + ".id"))).as("lane-02's timeline")
                    .doesNotContain("DEVICE_NOT_VERIFIED", "ROLLBACK_STARTED");
            Instant ended = Instant.parse(runs.getString(run("lane-01") + ".endedAt"));
            soft.assertThat(ended).as("lane-01's soak, stored to end at %s before the freeze, ends later by the frozen"
                    + " %d s", soakEnds, frozen.toSeconds()).isAfterOrEqualTo(soakEnds.plusSeconds(COUNTED_AT_LEAST));
            soft.assertThat(Instant.parse(runs.getString(run("lane-01") + ".soakEndsAt"))).as("lane-01's soak end")
                    .isAfterOrEqualTo(soakEnds.plusSeconds(COUNTED_AT_LEAST));
            List<String> soaked = messages(soakId, runs.getInt(run("lane-01") + ".id"));
            soft.assertThat(gap(soaked)).as("lane-01's timeline names hawkBit's silence: %s", soaked)
                    .hasValueSatisfying(m -> {
                        assertThat(Long.parseLong(m.group(1))).isBetween(COUNTED_AT_LEAST, frozen.toSeconds() + 5);
                        assertThat(m.group(2)).matches("the soak extended by \\d+ s, to \\d\\d:\\d\\d:\\d\\d UTC");
                    });
            List<String> verified = messages(soakId, runs.getInt(run("lane-02") + ".id"));
            soft.assertThat(gap(verified)).as("lane-02's timeline names hawkBit's silence: %s", verified).isPresent();
            soft.assertAll();
        }
    }

    /**
     * Readiness says hawkBit is down while its calls hang, not only once they fail: within the hang bound
     * ({@code qawk.hawkbit.hang-after}, 10 s) of a freeze, answering at once while it lasts, and up again after.
     * Today the readiness check's own ping waits out the 30 s read timeout, and a freeze shorter than that ends in
     * an answer: readiness never says down.
     */
    @Test
    void readinessSaysHawkbitIsDownWhileItsCallsHang() {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 200);
        try (ProcessFreeze freeze = SharedHawkbit.get().freeze()) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 503);
            assertThat(freeze.length()).as("said down only after hawkBit had not answered for a while")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(500))
                    .until(() -> readiness() == 503);
            Response down = RestAssured.given().get("/q/health/ready");
            assertThat(down.getTime()).as("answered at once, not after a hanging ping").isLessThan(3_000);
            assertThat(down.asString()).contains("hawkbit").containsPattern("not answered for \\d+ s");
        }
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 200);
    }

    // ------------------------------------------------------------------------------------------------------------

    /**
     * The deployment once FINISHED; if it ends otherwise (FAILED: every system went back) or not within
     * {@code within}, a failure naming where each run and device stands, with their timelines.
     */
    private static JsonPath finished(int id, Duration within) {
        AssertionError notFinished;
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(500))
                    .until(() -> List.of("FINISHED", "FAILED").contains(Lanes.deployment(id).getString("state")));
            JsonPath deployment = Lanes.deployment(id);
            if ("FINISHED".equals(deployment.getString("state"))) {
                return deployment;
            }
            notFinished = new AssertionError("deployment " + id + " ended " + deployment.getString("state") + ":"
                    + whereItStands(id));
        } catch (ConditionTimeoutException e) {
            notFinished = new AssertionError("deployment " + id + " not FINISHED within " + within + " but "
                    + Lanes.deployment(id).getString("state") + ":" + whereItStands(id), e);
        }
        throw notFinished;
    }

    private static String whereItStands(int id) {
        JsonPath runs = runs(id);
        StringBuilder where = new StringBuilder();
        for (Map<String, Object> r : runs.<Map<String, Object>>getList("")) {
            where.append("\n  ").append(r.get("system")).append(' ').append(r.get("state")).append(": ")
                    .append(r.get("reason")).append("; devices ");
            @SuppressWarnings("unchecked")
            Map<String, List<Map<String, Object>>> components = (Map<String, List<Map<String, Object>>>) r.get("components");
            components.values().forEach(ds -> ds.forEach(d -> where.append(d.get("controllerId")).append('=')
                    .append(d.get("state")).append(' ')));
            where.append("\n  timeline: ").append(messages(id, ((Number) r.get("id")).intValue()));
        }
        return where.toString();
    }

    private static int readiness() {
        return RestAssured.given().get("/q/health/ready").then().extract().statusCode();
    }

    private static String run(String system) {
        return "find { it.system == '" + system + "' }";
    }

    /** A device's state in its run, whatever its system and component. */
    private static String deviceState(int deployment, String controllerId) {
        JsonPath runs = runs(deployment);
        for (Map<String, Object> r : runs.<Map<String, Object>>getList("")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Map<String, Object>>> components = (Map<String, List<Map<String, Object>>>) r.get("components");
            for (List<Map<String, Object>> devices : components.values()) {
                for (Map<String, Object> d : devices) {
                    if (controllerId.equals(d.get("controllerId"))) {
                        return (String) d.get("state");
                    }
                }
            }
        }
        return null;
    }

    private static String reasons(JsonPath runs) {
        return runs.<Map<String, Object>>getList("").stream()
                .map(r -> r.get("system") + " " + r.get("state") + ": " + r.get("reason")).toList().toString();
    }

    private static List<Map<String, Object>> events(int deployment, int runId) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/events")
                .then().statusCode(200).extract().jsonPath().getList("");
    }

    private static List<String> messages(int deployment, int runId) {
        return events(deployment, runId).stream().map(e -> (String) e.get("message")).toList();
    }

    private static List<String> types(int deployment, int runId) {
        return events(deployment, runId).stream().map(e -> (String) e.get("type")).toList();
    }

    /** The first timeline entry that names a gap hawkBit caused, its seconds in group 1 and the rest in group 2. */
    private static Optional<Matcher> gap(List<String> messages) {
        return messages.stream().map(GAP::matcher).filter(Matcher::matches).findFirst();
    }

    /** {@code qawk_unobserved_seconds_total} of this deployment (label {@code deployment}), if the service has it. */
    private static Optional<Double> unobservedSeconds(int deployment) {
        String scrape = Api.viewer().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^qawk_unobserved_seconds_total\\{[^}]*deployment=\"" + deployment
                + "\"[^}]*} (\\S+)$").matcher(scrape);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }
}
