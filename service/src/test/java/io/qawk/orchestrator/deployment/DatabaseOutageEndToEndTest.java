package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.db.RestartablePostgres;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.RestartablePostgresResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 42: Qawk's own Postgres (a real one) stops while a deployment is under way and starts again later. Meanwhile
 * every API call answers 503 problem+json with {@code Retry-After}, never 500; afterwards the deployment goes on, and
 * its timeline names the stretch nobody observed for the database, as it does for hawkBit.
 */
@QuarkusTest
@TestProfile(DatabaseOutageEndToEndTest.OwnPostgres.class)
class DatabaseOutageEndToEndTest {

    static final Duration OUTAGE = Duration.ofSeconds(20);

    /** The service on a Postgres of its own; an observation is fresh for 6 s, so the outage is a stretch. */
    public static class OwnPostgres implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(HawkbitTestResource.class, Map.of(), true),
                    new TestResourceEntry(RestartablePostgresResource.class, Map.of(), true));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("qawk.engine.unobserved-after", "6s");
        }
    }

    @AfterEach
    void databaseBack() {
        RestartablePostgres.control("start");
    }

    @Test
    void whileTheDatabaseIsDownEveryCallSays503AndTheTimelineNamesTheGap() {
        try (Lanes lanes = new Lanes("dbout-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            // the terminal takes its time: the run is under way all through the outage
            lanes.behaviour("lane-01", "term-a", Behaviour.succeedAfter(Duration.ofSeconds(90)));
            lanes.discovered(1);
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                    .until(() -> "RUNNING".equals(runs(id).getString("[0].state")));
            int runId = runs(id).getInt("[0].id");

            RestartablePostgres.control("stop");
            Instant down = Instant.now();
            for (Response r : List.of(Api.viewer().get("/qawk/v1/systemdeployments/" + id),
                    Api.viewer().get("/qawk/v1/systemdeployments"),
                    Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs"),
                    Api.viewer().get("/qawk/v1/manifests"),
                    Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause"))) {
                r.then().statusCode(503).contentType("application/problem+json")
                        .header("Retry-After", Matchers.matchesPattern("\\d+"))
                        .body("detail", Matchers.equalTo(
                                "Qawk's database is unreachable; nothing was changed; try again"));
            }
            await().atMost(OUTAGE.plusSeconds(30)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> Duration.between(down, Instant.now()).compareTo(OUTAGE) >= 0);
            RestartablePostgres.control("start");

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
                    Api.viewer().get("/qawk/v1/systemdeployments/" + id).statusCode() == 200);
            assertThat(Lanes.deployment(id).getString("state")).as("the pause was refused, nothing changed")
                    .isEqualTo("RUNNING");
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events")
                            .then().statusCode(200).extract().jsonPath().<String>getList("message"))
                            .anySatisfy(m -> assertThat(m).matches("not observed \\d\\d:\\d\\d:\\d\\d–\\d\\d:\\d\\d:\\d\\d"
                                    + " UTC \\(Qawk's database was unreachable\\); order timeouts extended by \\d+ s")));
            assertThat(runs(id).getString("[0].state")).isEqualTo("RUNNING");
        }
    }
}
