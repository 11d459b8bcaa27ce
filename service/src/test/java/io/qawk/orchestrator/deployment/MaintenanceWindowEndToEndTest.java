package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static io.qawk.orchestrator.testsupport.Lanes.deployment;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;

/**
 * Maintenance windows per centre against the real hawkBit with simulated lanes: each centre's systems start only
 * inside its own window (schedules made from the real time, so one window closes and the other opens seconds after
 * the start), a system under way finishes past its window's end, and bad windows are refused naming the field.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class MaintenanceWindowEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(90);
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Inject
    DataSource dataSource;

    /** A daily Quartz schedule that fires at {@code at}'s wall-clock time in {@code zone}. */
    static String dailyAt(Instant at, ZoneId zone) {
        ZonedDateTime local = at.atZone(zone);
        return local.getSecond() + " " + local.getMinute() + " " + local.getHour() + " * * ?";
    }

    /** As the service writes a time of day: seconds only when there are any. */
    static String clock(Instant at, ZoneId zone) {
        ZonedDateTime local = at.atZone(zone);
        return DateTimeFormatter.ofPattern(local.getSecond() == 0 ? "HH:mm" : "HH:mm:ss").format(local);
    }

    static JsonPath run(int deploymentId, String system) {
        return runs(deploymentId).setRootPath("find { it.system == '" + system + "' }");
    }

    static double gauge(String name) {
        String scrape = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        return scrape.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(
                l.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * Two slots. c01's window (the default, Berlin time) opened 48 s before the start and closes 12 s after it; c02's
     * (its own, UTC) opens 25 s after it. c01's first two systems start at once and are still under way when c01
     * closes (their lane computers take 12 s); they finish past its end. Then both slots are free, and neither
     * c01's third system (closed since) nor c02's (not open yet) starts; c02's starts when its window opens, c01's
     * waits for tomorrow's.
     */
    @Test
    void eachCentresSystemsStartOnlyInsideItsOwnWindow() {
        try (Lanes lanes = new Lanes("e2e-win-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-04", "c01").system("lane-03", "c02");
            lanes.discovered(4);
            lanes.behaviour("lane-01", "lane", Behaviour.succeedAfter(Duration.ofSeconds(12)));
            lanes.behaviour("lane-02", "lane", Behaviour.succeedAfter(Duration.ofSeconds(12)));
            int manifest = lanes.manifest("2.0", "2");

            Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            Instant c01Opened = t.minusSeconds(48);
            Instant c01Closes = c01Opened.plusSeconds(60);
            Instant c02Opens = t.plusSeconds(25);
            ZoneId utc = ZoneId.of("UTC");
            String windows = """
                    "windows": {"default": {"schedule": "%s", "duration": "00:01", "timezone": "Europe/Berlin"},
                                "centres": {"c02": {"schedule": "%s", "duration": "01:00", "timezone": "UTC"}}}
                    """.formatted(dailyAt(c01Opened, BERLIN), dailyAt(c02Opens, utc));
            int id = lanes.deploy(manifest, "\"maxParallel\": 2, " + windows);

            // c01 is open: two of its systems start at once; c02's waits for its window and says when it opens
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    !"PENDING".equals(run(id, "lane-01").getString("state")) && !"PENDING".equals(run(id, "lane-02").getString("state")));
            for (String system : List.of("lane-01", "lane-02")) {
                assertThat(Instant.parse(run(id, system).getString("startedAt"))).as(system + " started in c01's window")
                        .isBefore(c01Closes);
            }
            assertThat(run(id, "lane-03").getString("reason"))
                    .isEqualTo("waiting for c02's window (opens " + clock(c02Opens, utc) + " UTC)");
            JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/plan").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(plan.getString("windows.find { it.centre == 'c01' }.words"))
                    .isEqualTo("open until " + clock(c01Closes, BERLIN) + " Europe/Berlin");
            assertThat(plan.getString("windows.find { it.centre == 'c02' }.words"))
                    .isEqualTo("opens " + clock(c02Opens, utc) + " UTC");
            assertThat(Instant.parse(plan.getString("windows.find { it.centre == 'c02' }.opensAt"))).isEqualTo(c02Opens);
            assertThat(plan.getString("systems.find { it.system == 'lane-03' }.waiting")).startsWith("waiting for c02's window");

            // c01 closes while its two systems are under way: they finish past its end, and both slots are free
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    "SUCCEEDED".equals(run(id, "lane-01").getString("state")) && "SUCCEEDED".equals(run(id, "lane-02").getString("state")));
            Instant slotsFree = Instant.EPOCH;
            for (String system : List.of("lane-01", "lane-02")) {
                Instant ended = Instant.parse(run(id, system).getString("endedAt"));
                assertThat(ended).as(system + " finished past its window's end").isAfter(c01Closes);
                slotsFree = ended.isAfter(slotsFree) ? ended : slotsFree;
            }
            assertThat(slotsFree).as("both slots free before c02's window opens (else this machine is too slow for"
                    + " the test to show that c02's system waited for its window, not for a slot)").isBefore(c02Opens);

            // c02 opens: its system starts; c01's third one, whose window has closed, does not
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .until(() -> "SUCCEEDED".equals(run(id, "lane-03").getString("state")));
            assertThat(Instant.parse(run(id, "lane-03").getString("startedAt"))).as("lane-03 started in c02's window")
                    .isAfterOrEqualTo(c02Opens);
            JsonPath waiting = run(id, "lane-04");
            assertThat(waiting.getString("state")).isEqualTo("PENDING");
            assertThat(waiting.getString("reason"))
                    .isEqualTo("waiting for c01's window (opens " + clock(c01Opened, BERLIN) + " Europe/Berlin)");
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                assertThat(lanes.hawkbit.actions(lanes.id("lane-04", role))).as("nothing sent to lane-04 " + role).isEmpty();
            }
            JsonPath d = deployment(id);
            assertThat(d.getString("state")).isEqualTo("RUNNING");
            assertThat(d.getInt("waitingForWindow")).isEqualTo(1);
            assertThat(d.getString("centreWindows.find { it.centre == 'c01' }.words"))
                    .isEqualTo("opens " + clock(c01Opened, BERLIN) + " Europe/Berlin");
            assertThat(d.getBoolean("centreWindows.find { it.centre == 'c02' }.open")).isTrue();
            assertThat(d.getString("windows.centres.c02.timezone")).isEqualTo("UTC");
            // the gauge counts every running deployment's systems waiting for a window, and the application is shared
            // with the suite's earlier classes (their deployments may still wait): lane-04 is among them, and leaves it
            // with the abort. Refreshed every 2 s; slower under load.
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(gauge("qawk_runs_waiting_for_window")).isGreaterThanOrEqualTo(1.0));
            double waitingWithLane04 = gauge("qawk_runs_waiting_for_window");

            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);
            assertThat(deployment(id).getString("state")).isEqualTo("ABORTED");
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(gauge("qawk_runs_waiting_for_window")).isEqualTo(waitingWithLane04 - 1));
        }
    }

    @Test
    void badWindowsAreRefusedNamingTheFieldAndChangeNothing() {
        try (Lanes lanes = new Lanes("e2e-winbad-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int channel = lanes.channel("ch", "");
            List<String> before = Tables.dump(dataSource, "system_deployment", "fleet", "fleet_release");

            Api.admin().body("""
                    {"name": "bad windows", "manifestId": %d, "windows": {
                      "default": {"schedule": "0 0 2 * * ?", "duration": "00:00", "timezone": "Europe/Berlin"},
                      "centres": {"c01": {"schedule": "0 2 * * *", "duration": "03:00", "timezone": "Mars/Olympus"}}}}
                    """.formatted(manifest)).post("/qawk/v1/systemdeployments")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", hasItem("windows.default.duration"))
                    .body("errors.find { it.field == 'windows.centres.c01.schedule' }.message",
                            containsString("not a cron schedule: Cron expression contains 5 parts"))
                    .body("errors.find { it.field == 'windows.centres.c01.timezone' }.message",
                            containsString("unknown time zone 'Mars/Olympus'"));
            Api.admin().body("{\"orchestrator\": {\"windows\": {\"centres\": {\"c01\": {\"schedule\": \"0 0 2 * * ?\","
                            + " \"duration\": \"200:00\", \"timezone\": \"UTC\"}}}}, \"manifestId\": " + manifest + "}")
                    .put("/qawk/v1/fleets/" + channel)
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", hasItem("orchestrator.windows.centres.c01.duration"));
            Api.admin().body("{\"name\": \"" + lanes.prefix + "ch2\", \"match\": \"attribute.channel==x\", \"orchestrator\":"
                            + " {\"windows\": {\"default\": {\"schedule\": \"0 0 2 * * ? 2020\", \"duration\": \"01:00\","
                            + " \"timezone\": \"UTC\"}}}}")
                    .post("/qawk/v1/fleets")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors.find { it.field == 'orchestrator.windows.default.schedule' }.message",
                            containsString("names no time after now"));
            Api.admin().body("{\"name\": \"typo\", \"manifestId\": " + manifest
                            + ", \"windows\": {\"centres\": {\"c01\": {\"schedule\": \"0 0 2 * * ?\", \"duration\": \"03:00\","
                            + " \"timezone\": \"UTC\", \"timeZone\": \"UTC\"}}}}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(400).contentType("application/problem+json");

            assertThat(Tables.dump(dataSource, "system_deployment", "fleet", "fleet_release")).isEqualTo(before);
        }
    }

    @Test
    void aChannelsReleaseStartsItsDeploymentWithTheChannelsWindows() {
        try (Lanes lanes = new Lanes("e2e-winch-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int channel = lanes.channel("ch", """
                    "orchestrator": {"maxParallel": 2, "windows": {"centres": {"c01": {"schedule": "0 0 2 * * ?",
                      "duration": "03:00", "timezone": "Europe/Berlin"}}}}""");
            assertThat(Lanes.channelView(channel).getString("orchestrator.windows.centres.c01.schedule")).isEqualTo("0 0 2 * * ?");

            Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel).then().statusCode(200);
            int id = Lanes.channelView(channel).getInt("release.deploymentId");
            assertThat(deployment(id).getString("windows.centres.c01.timezone")).isEqualTo("Europe/Berlin");
            assertThat(deployment(id).getString("windows.centres.c01.duration")).isEqualTo("03:00");

            // {} takes the windows away again: the next release's deployment has none
            Api.admin().body("{\"orchestrator\": {\"windows\": {}}, \"manifestId\": " + manifest + "}")
                    .put("/qawk/v1/fleets/" + channel).then().statusCode(200);
            assertThat(Lanes.channelView(channel).getString("orchestrator.windows")).isNull();
            int next = Lanes.channelView(channel).getInt("release.deploymentId");
            assertThat(next).isNotEqualTo(id);
            assertThat(deployment(next).getString("windows")).isNull();
            assertThat(deployment(next).getList("centreWindows")).isEmpty();
        }
    }
}
