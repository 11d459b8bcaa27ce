package io.qawk.orchestrator.hostile;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.qawk.orchestrator.testkit.InventoryPass;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import org.awaitility.core.ConditionTimeoutException;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 9, hawkBit trouble: hawkBit answering 503, answering slower than the read timeout, and resetting
 * connections in the middle of a deployment fails no run and loses nothing; readiness and metrics show it; the
 * deployment finishes once hawkBit is back. A target deleted during a run fails that device and sends the system
 * back. Last, the application log of all of it holds no password.
 * <p>
 * {@code -Dqawk.outage.seconds=N} (default 24) sets how long the outage lasts, split over the three kinds.
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HawkbitTroubleTest {

    static final int OUTAGE_SECONDS = Integer.getInteger("qawk.outage.seconds", 24);
    static final Set<String> FAILED_STATES = Set.of("FAILED", "ROLLBACK_FAILED");

    @BeforeAll
    static void proxy() {
        HawkbitProxy.heal();
    }

    private static int readiness() {
        return RestAssured.given().get("/q/health/ready").then().extract().statusCode();
    }

    /** Sum of {@code qawk_hawkbit_requests_seconds_count} with this outcome. */
    static double requests(String outcome) {
        String metrics = Api.admin().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^qawk_hawkbit_requests_seconds_count\\{([^}]*)\\}\\s+(\\S+)$").matcher(metrics);
        double sum = 0;
        while (m.find()) {
            if (m.group(1).contains("outcome=\"" + outcome + "\"")) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    @Test
    @Order(1)
    void anOutageInTheMiddleOfADeploymentFailsNothingAndTheDeploymentFinishesAfterwards() {
        try (Lanes lanes = new Lanes("ht-out-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            // lane-02's computer fails on the new app: that system must go back (a device's failure, not hawkBit's)
            lanes.behaviour("lane-02", "lane", Behaviour.failFor(lanes.set("app:2")));
            lanes.behaviour("lane-01", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(4)));
            int manifest = lanes.manifest("2.0", "2");
            double serverErrors = requests("server_error");
            double transportErrors = requests("transport_error");
            assertThat(readiness()).isEqualTo(200);

            // an order timeout shorter than the long run's outage (-Dqawk.outage.seconds=180): time hawkBit was away
            // must not count toward it
            int id = lanes.deploy(manifest, "\"maxParallel\": 2, \"maxFailed\": 1, \"orderTimeoutSeconds\": 45");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                    .until(() -> runs(id).getList("findAll { it.state == 'RUNNING' }").size() == 2);

            boolean[] sawDown = new boolean[1];
            long phase = OUTAGE_SECONDS * 1000L / 3;
            List<String> during = new ArrayList<>();
            for (HawkbitProxy.Trouble kind : HawkbitProxy.Trouble.values()) {
                HawkbitProxy.trouble(kind, HostileProfile.READ_TIMEOUT);
                long until = System.currentTimeMillis() + phase;
                while (System.currentTimeMillis() < until) {
                    if (readiness() == 503) {
                        sawDown[0] = true;
                    }
                    JsonPath runs = runs(id);
                    during.addAll(runs.getList("state"));
                    sleep(1000);
                }
                if (kind == HawkbitProxy.Trouble.SERVER_ERROR) {
                    // people can still steer the deployment while hawkBit is away; the command is recorded
                    Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause").then().statusCode(200);
                    Api.admin().post("/qawk/v1/systemdeployments/" + id + "/resume").then().statusCode(200);
                }
            }
            HawkbitProxy.heal();

            assertThat(sawDown[0]).as("readiness DOWN during the outage").isTrue();
            assertThat(during).as("run states during the outage").doesNotContainAnyElementsOf(FAILED_STATES);
            assertThat(requests("server_error")).isGreaterThan(serverErrors);
            assertThat(requests("transport_error")).isGreaterThan(transportErrors);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> readiness() == 200);

            JsonPath done = awaitState(id, "FINISHED", Duration.ofSeconds(180));
            assertThat(done.getString("summary")).isEqualTo("1 of 2 updated, 1 rolled back");
            JsonPath runs = runs(id);
            assertThat(runs.getString("find { it.system == 'lane-01' }.state")).isEqualTo("SUCCEEDED");
            assertThat(runs.getString("find { it.system == 'lane-02' }.state")).isEqualTo("ROLLED_BACK");
            assertThat(runs.getString("find { it.system == 'lane-02' }.reason"))
                    .isEqualTo("1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again");
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                String set = role.equals("lane") ? "app" : role.startsWith("term") ? "term" : "disp";
                assertThat(lanes.installedSetId(lanes.id("lane-01", role))).as(role).isEqualTo(lanes.set(set + ":2"));
                assertThat(lanes.installedSetId(lanes.id("lane-02", role))).as(role).isEqualTo(lanes.set(set + ":1"));
            }
            // every human command is on the record with who gave it; the engine's own steps carry no actor
            int runId = runs.getInt("find { it.system == 'lane-01' }.id");
            JsonPath events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(events.getString("find { it.type == 'CREATED' }.actor")).isEqualTo("admin");
            assertThat(events.getString("find { it.type == 'PAUSED' }.actor")).isEqualTo("admin");
            assertThat(events.getString("find { it.type == 'RESUMED' }.actor")).isEqualTo("admin");
            assertThat(events.<String>getList("findAll { it.type == 'ASSIGNED' }.actor")).containsOnlyNulls();
            assertThat(Lanes.deployment(id).getString("createdBy")).isIn("admin", null);
        }
    }

    @Test
    @Order(2)
    void aTargetDeletedInHawkbitDuringARunFailsThatDeviceAndSendsTheSystemBack() throws Exception {
        try (Lanes lanes = new Lanes("ht-del-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            lanes.behaviour("lane-01", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(60)));
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "");
            String victim = lanes.id("lane-01", "term-a");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() ->
                    "ASSIGNED".equals(runs(id).getString("[0].components.terminal.find { it.controllerId == '"
                            + victim + "' }.state")));

            var hawkbit = SharedHawkbit.get();
            HttpResponse<String> deleted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(hawkbit.baseUrl() + "/rest/v1/targets/" + victim)).DELETE()
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            (hawkbit.user() + ":" + hawkbit.password()).getBytes(StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(deleted.statusCode()).isEqualTo(200);

            try {
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                        .until(() -> Set.of("ROLLED_BACK", "ROLLBACK_FAILED").contains(runs(id).getString("[0].state")));
            } catch (ConditionTimeoutException e) {
                // this failed twice in whole runs with nothing in the log: say what the engine was doing
                throw new AssertionError("run not back within 120 s: " + runs(id).prettify() + "\nliveness: "
                        + RestAssured.given().get("/q/health/live").asString() + "\nengine thread: " + engineThread(), e);
            }
            JsonPath run = runs(id);
            assertThat(run.getString("[0].components.terminal.find { it.controllerId == '" + victim + "' }.detail"))
                    .contains("the target was deleted in hawkBit");
            assertThat(run.getString("[0].reason")).startsWith("1 device(s) failed at order 1 -- rolled back");
            assertThat(lanes.installedSetId(lanes.id("lane-01", "term-b"))).isEqualTo(lanes.set("term:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "display"))).isEqualTo(lanes.set("disp:1"));
            assertThat(lanes.hawkbit.actions(lanes.id("lane-01", "lane"))).as("order 2 never sent").hasSize(1);
        }
    }

    /**
     * A sync that outlasts the HTTP idle timeout, as against a hawkBit busy with its devices (every answer 0.8 s
     * late) and a type with many kinds of component (a target query each, one after another): {@code POST
     * …/inventory/sync} is answered 202 within half that timeout, never cut off without an answer (as it was: Vert.x
     * counts a request being worked on as idle). The pass goes on, and {@code GET …/inventory} says it completed.
     */
    @Test
    @Order(3)
    void aSyncLongerThanTheIdleTimeoutIsAnswered202AndGoesOn() throws Exception {
        try (Lanes lanes = new Lanes("ht-slow-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            int manyParts = manyPartsType("ht-slow-");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.findTargetIds("attribute.device_type==ht-slow-*")).hasSize(4));

            // 0.8 s: with hawkBit's own time still under the 2 s read timeout on a loaded machine
            HawkbitProxy.slowAnswers(Duration.ofMillis(800));
            try {
                Instant requestedAt = syncAnswered202();
                JsonPath done = awaitPassEnded(requestedAt);
                assertThat(done.getString("lastError")).isNull();
                assertThat(InventoryPass.endOf(requestedAt, done)).isEqualTo(InventoryPass.End.COMPLETED);
                assertThat(done.getLong("durationMillis")).as("the pass outlasted the idle timeout")
                        .isGreaterThan(HostileProfile.IDLE_TIMEOUT_SECONDS * 1000L);
                Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems").then().statusCode(200)
                        .body("total", Matchers.equalTo(1));
            } finally {
                HawkbitProxy.heal();
                Api.admin().delete("/qawk/v1/systemtypes/" + manyParts).then().statusCode(204);
            }
        }
    }

    /**
     * hawkBit stops answering (a frozen process) while a sync answered 202 goes on: the pass fails as hawkBit being
     * away, and {@code GET …/inventory} says so with a failure dated after the request, so whoever asked is not left
     * waiting for a completion that will not come.
     */
    @Test
    @Order(4)
    void aSyncAnswered202ThatLosesHawkbitIsSaidToHaveFailed() throws Exception {
        int manyParts = manyPartsType("ht-lost-");
        HawkbitProxy.slowAnswers(Duration.ofMillis(800));
        try {
            Instant requestedAt = syncAnswered202();
            HawkbitProxy.blackHole();
            JsonPath ended = awaitPassEnded(requestedAt);
            assertThat(InventoryPass.endOf(requestedAt, ended)).isEqualTo(InventoryPass.End.FAILED);
            assertThat(ended.getString("lastError")).startsWith("hawkBit unavailable");
        } finally {
            HawkbitProxy.heal();
            Api.admin().delete("/qawk/v1/systemtypes/" + manyParts).then().statusCode(204);
        }
    }

    /** A system type of 12 components that match nothing: 12 target queries of every pass, one after another. */
    private static int manyPartsType(String prefix) {
        StringBuilder components = new StringBuilder();
        for (int i = 1; i <= 12; i++) {
            components.append(i > 1 ? ", " : "").append("{\"componentType\": \"part").append(i)
                    .append("\", \"match\": \"attribute.device_type==").append(prefix).append("part").append(i)
                    .append("\"}");
        }
        return Api.admin().body("{\"name\": \"" + prefix + "many-parts\", \"systemKey\": \"attribute.device\","
                + " \"components\": [" + components + "]}").post("/qawk/v1/systemtypes").then().statusCode(201)
                .extract().path("id");
    }

    /**
     * {@code POST …/inventory/sync} on a connection of its own, whose pass outlasts the idle timeout: answered 202
     * within it, with the inventory's status as its {@code Location}; returns the answer's {@code requestedAt}.
     */
    private static Instant syncAnswered202() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/qawk/v1/inventory/sync"))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(120))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("admin:" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        assertThat(took).isLessThan(Duration.ofSeconds(HostileProfile.IDLE_TIMEOUT_SECONDS));
        assertThat(answer.headers().firstValue("Location")).hasValueSatisfying(
                l -> assertThat(l).endsWith("/qawk/v1/inventory"));
        return Instant.parse(JsonPath.from(answer.body()).getString("requestedAt"));
    }

    /** {@code GET …/inventory} once the pass asked for at {@code requestedAt} has ended, however it did. */
    private static JsonPath awaitPassEnded(Instant requestedAt) {
        return await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(
                () -> Api.admin().get("/qawk/v1/inventory").then().statusCode(200).extract().jsonPath(),
                s -> InventoryPass.endOf(requestedAt, s) != null);
    }

    /** After all this, the engine still passes: liveness says so, with when its last pass ended. */
    @Test
    @Order(5)
    void theEngineIsStillAliveAndPassing() {
        JsonPath live = RestAssured.given().get("/q/health/live").then().statusCode(200).extract().jsonPath();
        assertThat(live.getString("checks.find { it.name == 'deployment-engine' }.status")).isEqualTo("UP");
        assertThat(live.getLong("checks.find { it.name == 'deployment-engine' }.data.lastPassEndedSecondsAgo"))
                .as("seconds since the engine's last pass (it passes every second here)").isLessThan(10);
    }

    @Test
    @Order(6)
    void theLogOfAllThisHoldsNoPassword() throws Exception {
        var hawkbit = SharedHawkbit.get();
        String log = Files.readString(HostileProfile.LOG_FILE);
        assertThat(log).as("the scenario above is in the log").contains("hawkBit");
        assertThat(log).contains("waits");
        List<String> secrets = List.of(hawkbit.password(), HostileProfile.DB_PASSWORD, Api.ADMIN_PASSWORD,
                Api.VIEWER_PASSWORD,
                Base64.getEncoder().encodeToString((hawkbit.user() + ":" + hawkbit.password()).getBytes(StandardCharsets.UTF_8)),
                Base64.getEncoder().encodeToString(("admin:" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        for (String secret : secrets) {
            assertThat(secret).hasSizeGreaterThan(6);
            assertThat(log).as("log holds a secret").doesNotContain(secret);
        }
    }

    /** The deployment engine loop's thread and where it stands, from this JVM (the application runs in it). */
    private static String engineThread() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(t -> t.getKey().getName().equals("qawk-deployment-engine"))
                .map(t -> t.getKey().getState() + " " + Arrays.stream(t.getValue()).limit(40).map(String::valueOf)
                        .collect(Collectors.joining("\n  ", "\n  ", "")))
                .findFirst().orElse("none: the loop's thread has ended");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
