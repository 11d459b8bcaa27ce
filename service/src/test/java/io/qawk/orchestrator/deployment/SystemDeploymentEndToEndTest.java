package io.qawk.orchestrator.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.testkit.ActionRecord;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/** System deployments against the real hawkBit with simulated lanes: the promises of the product description. */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class SystemDeploymentEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    /** The operator's guide, and the words just before the statement it tells an operator to run after a restore. */
    static final Path OPERATIONS = Path.of("../docs/operations.md");
    static final String RESTORE_CHECK_ANCHOR = "**Before Qawk starts on the restored database**";

    @Inject
    DataSource dataSource;

    /** The first fenced {@code sql} block after {@link #RESTORE_CHECK_ANCHOR} in the guide, as a person copies it. */
    static String restoreCheckSql() throws IOException {
        String doc = Files.readString(OPERATIONS);
        int anchor = doc.indexOf(RESTORE_CHECK_ANCHOR);
        assertThat(anchor).as("%s still says %s", OPERATIONS, RESTORE_CHECK_ANCHOR).isNotNegative();
        int open = doc.indexOf("```sql\n", anchor);
        assertThat(open).as("a ```sql block after %s", RESTORE_CHECK_ANCHOR).isNotNegative();
        int close = doc.indexOf("```", open + 7);
        assertThat(doc.substring(anchor, open)).as("the block belongs to that step").doesNotContain("\n2. ");
        return doc.substring(open + 7, close).strip();
    }

    /** Actions hawkBit holds for a device and a set, with their creation and last change. */
    private static List<JsonNode> actionsFor(Lanes lanes, String controllerId, long setId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : lanes.hawkbit.actions(controllerId)) {
            JsonNode full = lanes.hawkbit.action(controllerId, a.path("id").asLong());
            String href = full.path("_links").path("distributionset").path("href").asText("");
            if (href.endsWith("/" + setId)) {
                out.add(full);
            }
        }
        return out;
    }

    @Test
    void theLaneComputerIsAssignedOnlyAfterItsTerminalsAndDisplayFinished() {
        try (Lanes lanes = new Lanes("e2e-lane-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            int manifest = lanes.manifest("2.0", "2");

            int id = lanes.deploy(manifest, "\"maxParallel\": 1");
            JsonPath done = awaitState(id, "FINISHED", WITHIN);

            assertThat(done.getString("summary")).isEqualTo("1 of 1 updated, 0 rolled back");
            JsonPath runs = runs(id);
            assertThat(runs.getString("[0].state")).isEqualTo("SUCCEEDED");
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                String set = role.equals("lane") ? "app:2" : role.startsWith("term") ? "term:2" : "disp:2";
                assertThat(lanes.installedSetId(lanes.id("lane-07", role))).as(role).isEqualTo(lanes.set(set));
            }
            long laneAssigned = actionsFor(lanes, lanes.id("lane-07", "lane"), lanes.set("app:2")).get(0)
                    .path("createdAt").asLong();
            for (String role : List.of("term-a", "term-b", "display")) {
                long setId = lanes.set(role.equals("display") ? "disp:2" : "term:2");
                JsonNode action = actionsFor(lanes, lanes.id("lane-07", role), setId).get(0);
                assertThat(action.path("status").asText()).isEqualTo("finished");
                assertThat(laneAssigned).as("lane assigned after %s finished", role)
                        .isGreaterThanOrEqualTo(action.path("lastModifiedAt").asLong());
            }

            // a manifest is a destination: the second time, nothing is assigned
            Map<String, Integer> before = new HashMap<>();
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                before.put(role, lanes.hawkbit.actions(lanes.id("lane-07", role)).size());
            }
            int again = lanes.deploy(manifest, "\"maxParallel\": 1");
            awaitState(again, "FINISHED", WITHIN);
            assertThat(runs(again).getString("[0].state")).isEqualTo("SUCCEEDED");
            assertThat(runs(again).getString("[0].reason")).contains("4 device(s) already were");
            for (String role : List.of("lane", "term-a", "term-b", "display")) {
                assertThat(lanes.hawkbit.actions(lanes.id("lane-07", role))).as(role).hasSize(before.get(role));
            }
        }
    }

    @Test
    void aFailingLaneComputerSendsTheWholeSystemBackWhileTheOtherSystemCarriesOn() {
        try (Lanes lanes = new Lanes("e2e-fail-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.preinstall("1");
            lanes.behaviour("lane-02", "lane", Behaviour.failFor(lanes.set("app:2")));
            lanes.behaviour("lane-03", "lane", Behaviour.fail()); // fails forward, and fails to go back
            int manifest = lanes.manifest("2.0", "2");

            int id = lanes.deploy(manifest, "\"maxParallel\": 3, \"maxFailed\": 2");
            JsonPath done = awaitState(id, "FINISHED", WITHIN);

            assertThat(done.getString("summary")).isEqualTo("1 of 3 updated, 2 rolled back (1 failed to go back)");
            JsonPath runs = runs(id);
            assertThat(runs.getString("find { it.system == 'lane-01' }.state")).isEqualTo("SUCCEEDED");
            assertThat(runs.getString("find { it.system == 'lane-02' }.state")).isEqualTo("ROLLED_BACK");
            assertThat(runs.getString("find { it.system == 'lane-02' }.reason")).isEqualTo(
                    "1 device(s) failed at order 2 -- rolled back: 4 of 4 devices on their previous set again");
            assertThat(lanes.installedSetId(lanes.id("lane-02", "lane"))).isEqualTo(lanes.set("app:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-02", "term-a"))).isEqualTo(lanes.set("term:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-02", "display"))).isEqualTo(lanes.set("disp:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));

            // mirrored: the lane computer (order 2) went back first, and the terminals and the display (order 1) were
            // given their old sets only after it had finished going back, as the devices saw it
            ActionRecord laneBack = last(lanes.devices.history(lanes.id("lane-02", "lane")));
            assertThat(laneBack.distributionSetId()).isEqualTo(lanes.set("app:1"));
            assertThat(laneBack.outcome()).isEqualTo(ActionRecord.Outcome.SUCCESS);
            for (String role : List.of("term-a", "term-b", "display")) {
                ActionRecord back = last(lanes.devices.history(lanes.id("lane-02", role)));
                assertThat(back.distributionSetId()).as(role)
                        .isEqualTo(lanes.set(role.equals("display") ? "disp:1" : "term:1"));
                assertThat(back.receivedAt()).as("%s told to go back after the lane computer was back", role)
                        .isAfterOrEqualTo(laneBack.finishedAt());
            }

            // a lane computer that does not go back keeps the lower order where the way forward had put it: the new
            // firmware with the old app is a state the update passed through, the old firmware with an unknown app is not
            assertThat(runs.getString("find { it.system == 'lane-03' }.state")).isEqualTo("ROLLBACK_FAILED");
            assertThat(runs.getString("find { it.system == 'lane-03' }.reason")).isEqualTo(
                    "1 device(s) failed at order 2 -- rolled back: 0 of 1 devices on their previous set again;"
                            + " FAILED TO GO BACK: " + lanes.id("lane-03", "lane") + "; order 1 not sent back:"
                            + " 3 device(s) kept on their new set, a state the update passed through");
            for (String role : List.of("term-a", "term-b", "display")) {
                ActionRecord lastGiven = last(lanes.devices.history(lanes.id("lane-03", role)));
                assertThat(lastGiven.distributionSetId()).as("%s was not sent back", role)
                        .isEqualTo(lanes.set(role.equals("display") ? "disp:2" : "term:2"));
                assertThat(lanes.installedSetId(lanes.id("lane-03", role))).as(role)
                        .isEqualTo(lanes.set(role.equals("display") ? "disp:2" : "term:2"));
            }
        }
    }

    private static ActionRecord last(List<ActionRecord> history) {
        assertThat(history).isNotEmpty();
        return history.get(history.size() - 1);
    }

    @Test
    void aSystemWhoseDevicesRanNothingBeforeSaysSo() {
        try (Lanes lanes = new Lanes("e2e-new-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.behaviour("lane-01", "term-a", Behaviour.fail());
            int manifest = lanes.manifest("2.0", "2");

            int id = lanes.deploy(manifest, "\"maxFailed\": 0");
            awaitState(id, "FAILED", WITHIN);

            assertThat(runs(id).getString("[0].reason")).isEqualTo("1 device(s) failed at order 1 -- rolled back: "
                    + "0 of 0 devices on their previous set again, 3 ran nothing before and were left as they are");
            assertThat(runs(id).getString("[0].components.lane[0].state")).isEqualTo("NOT_SENT");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-01", "lane"))).isEmpty();
            // failed with no system left to start: abort would change nothing, so it is refused, saying why
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", Matchers.equalTo("deployment " + id + " is FAILED with no system left to"
                            + " start; there is nothing to abort: take a rolled-back system again, or leave it as it is"));
        }
    }

    /** The most runs under way at any instant, from their start and end times. */
    private static int maxOverlap(JsonPath runs) {
        List<Instant[]> spans = new ArrayList<>();
        for (Map<String, Object> r : runs.<Map<String, Object>>getList("")) {
            if (r.get("startedAt") != null) {
                spans.add(new Instant[]{Instant.parse((String) r.get("startedAt")), Instant.parse((String) r.get("endedAt"))});
            }
        }
        int max = 0;
        for (Instant[] s : spans) {
            int n = (int) spans.stream().filter(o -> !o[0].isAfter(s[0]) && o[1].isAfter(s[0])).count();
            max = Math.max(max, n);
        }
        return max;
    }

    @Test
    void maxParallelIsNeverExceeded() {
        try (Lanes lanes = new Lanes("e2e-par-").withSetsAndType()) {
            for (int i = 1; i <= 6; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            lanes.discovered(6);
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 2");
            awaitState(id, "FINISHED", Duration.ofSeconds(180));

            assertThat(maxOverlap(runs(id))).isEqualTo(2);
            assertThat(Lanes.deployment(id).getString("summary")).isEqualTo("6 of 6 updated, 0 rolled back");
        }
    }

    @Test
    void centresGoOneAtATimeInTheGivenOrder() {
        try (Lanes lanes = new Lanes("e2e-centre-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c02").system("lane-04", "c02")
                    .system("lane-05", "c03");
            lanes.discovered(5);
            int id = lanes.deploy(lanes.manifest("2.0", "2"),
                    "\"maxParallel\": 4, \"byCentre\": true, \"groups\": [\"c02\", \"c01\"]");
            awaitState(id, "FINISHED", Duration.ofSeconds(180));

            JsonPath runs = runs(id);
            assertThat(runs.getList("system")).containsExactly("lane-03", "lane-04", "lane-01", "lane-02");
            Instant lastOfC02 = runs.<String>getList("findAll { it.group == 'c02' }.endedAt").stream()
                    .map(Instant::parse).max(Instant::compareTo).orElseThrow();
            Instant firstOfC01 = runs.<String>getList("findAll { it.group == 'c01' }.startedAt").stream()
                    .map(Instant::parse).min(Instant::compareTo).orElseThrow();
            assertThat(firstOfC01).isAfterOrEqualTo(lastOfC02);
            JsonPath plan = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/plan").then().statusCode(200)
                    .extract().jsonPath();
            assertThat(plan.getList("systems.system")).containsExactly("lane-03", "lane-04", "lane-01", "lane-02");
        }
    }

    @Test
    void moreFailuresThanAllowedStopNewSystemsAndEndFailed() {
        try (Lanes lanes = new Lanes("e2e-budget-").withSetsAndType()) {
            for (int i = 1; i <= 5; i++) {
                lanes.system("lane-0" + i, "c01");
            }
            lanes.discovered(5);
            for (int i = 1; i <= 3; i++) {
                lanes.behaviour("lane-0" + i, "display", Behaviour.failFor(lanes.set("disp:2")));
            }
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1, \"maxFailed\": 1");
            JsonPath failed = awaitState(id, "FAILED", Duration.ofSeconds(180));

            assertThat(failed.getInt("counts.rolledBack")).isEqualTo(2);
            assertThat(failed.getInt("counts.pending")).isEqualTo(3);
            JsonPath runs = runs(id);
            assertThat(runs.getList("findAll { it.state == 'PENDING' }.system"))
                    .containsExactly("lane-03", "lane-04", "lane-05");
            assertThat(lanes.hawkbit.actions(lanes.id("lane-04", "display"))).isEmpty();
            assertThat(failed.getString("failedBecause"))
                    .isEqualTo("2 systems rolled back, maxFailed 1 allows 1: no new system started, 3 not started");

            // abort means something here: it skips the systems the failures left pending, and ends it
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200)
                    .body("state", Matchers.equalTo("ABORTED"))
                    .body("counts.skipped", Matchers.equalTo(3));
        }
    }

    @Test
    void pauseHoldsNewSystemsBackAndResumeGoesOn() {
        try (Lanes lanes = new Lanes("e2e-pause-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause").then().statusCode(200)
                    .body("state", Matchers.equalTo("PAUSED"));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause").then().statusCode(409)
                    .contentType("application/problem+json");

            Awaitility.await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20))
                    .until(() -> runs(id).getList("findAll { it.state != 'PENDING' }").size() <= 1);
            assertThat(lanes.hawkbit.actions(lanes.id("lane-02", "term-a"))).isEmpty();

            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/resume").then().statusCode(200)
                    .body("state", Matchers.equalTo("RUNNING"));
            awaitState(id, "FINISHED", Duration.ofSeconds(180));
            assertThat(Lanes.deployment(id).getString("summary")).isEqualTo("3 of 3 updated, 0 rolled back");
        }
    }

    /**
     * docs/operations.md, "After a restore or a failover": the statement it tells an operator to run before Qawk
     * starts, copied from the doc and run as written against a running deployment, stores what {@code POST …/pause}
     * stores (the same columns, the same answer, the same timeline entry on the system under way, by the actor
     * {@code restore-check}); the engine then sends nothing more for it until {@code POST …/resume}, after which it
     * goes on and finishes.
     */
    @Test
    void theRestoreCheckInOperationsPausesAsThePauseCommandDoes() throws Exception {
        String sql = restoreCheckSql();
        try (Lanes lanes = new Lanes("e2e-restore-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.behaviour("lane-01", "term-a", Behaviour.hold());
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            String base = "/qawk/v1/systemdeployments/" + id;
            Awaitility.await().atMost(WITHIN).until(() -> "RUNNING".equals(runs(id).getString("[0].state"))
                    && !lanes.hawkbit.actions(lanes.id("lane-01", "term-a")).isEmpty());
            int runId = runs(id).getInt("[0].id");

            // the reference: what the command stores, then resumed
            Map<String, Object> beforeCommand = row(id);
            Api.admin().post(base + "/pause").then().statusCode(200);
            Set<String> storedByCommand = changed(beforeCommand, row(id));
            JsonPath byCommand = Lanes.deployment(id);
            Map<String, Object> commandEntry = pausedSince(base, runId, -1).get(0);
            Api.admin().post(base + "/resume").then().statusCode(200);
            assertThat(Lanes.deployment(id).getString("state")).isEqualTo("RUNNING");
            long resumed = events(base, runId).stream().filter(e -> "RESUMED".equals(e.get("type")))
                    .mapToLong(e -> ((Number) e.get("id")).longValue()).max().orElseThrow();

            Map<String, Object> beforeSql = row(id);
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                st.execute(sql);
            }
            assertThat(changed(beforeSql, row(id))).as("the columns the statement changes").isEqualTo(storedByCommand);

            JsonPath bySql = Lanes.deployment(id);
            for (String field : List.of("state", "paused", "aborted", "startedBy", "abortedBy", "endedAt")) {
                assertThat(bySql.getString(field)).as(field).isEqualTo(byCommand.getString(field));
            }
            assertThat(bySql.getString("pausedBy")).isEqualTo("restore-check");
            List<Map<String, Object>> sqlEntries = pausedSince(base, runId, resumed);
            assertThat(sqlEntries).as("the run's timeline since the resume: %s", events(base, runId)).hasSize(1);
            Map<String, Object> sqlEntry = sqlEntries.get(0);
            assertThat(sqlEntry).containsEntry("actor", "restore-check");
            for (String field : List.of("type", "message", "data")) {
                assertThat(sqlEntry.get(field)).as("timeline entry's %s", field).isEqualTo(commandEntry.get(field));
            }
            Api.admin().post(base + "/pause").then().statusCode(409); // paused as the command leaves it
            assertThat(lanes.hawkbit.actions(lanes.id("lane-01", "lane"))).isEmpty();

            // the device already sent its set finishes it; nothing new goes out until resumed
            lanes.behaviour("lane-01", "term-a", Behaviour.succeed());
            Awaitility.await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20)).until(() ->
                    lanes.hawkbit.actions(lanes.id("lane-01", "lane")).isEmpty()
                            && lanes.hawkbit.actions(lanes.id("lane-02", "term-a")).isEmpty()
                            && "PAUSED".equals(Lanes.deployment(id).getString("state")));
            assertThat(lanes.installedSetId(lanes.id("lane-01", "term-a"))).isEqualTo(lanes.set("term:2"));

            Api.admin().post(base + "/resume").then().statusCode(200);
            awaitState(id, "FINISHED", Duration.ofSeconds(180));
            assertThat(Lanes.deployment(id).getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
        }
    }

    /** The deployment's row, column by column. */
    private Map<String, Object> row(int id) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement q = c.prepareStatement("select * from system_deployment where id = ?")) {
            q.setLong(1, id);
            try (ResultSet rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                ResultSetMetaData meta = rs.getMetaData();
                Map<String, Object> out = new TreeMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    out.put(meta.getColumnName(i), rs.getObject(i));
                }
                return out;
            }
        }
    }

    private static Set<String> changed(Map<String, Object> before, Map<String, Object> after) {
        return before.keySet().stream().filter(k -> !Objects.equals(before.get(k), after.get(k)))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static List<Map<String, Object>> events(String deployment, int runId) {
        return Api.viewer().get(deployment + "/runs/" + runId + "/events").then().statusCode(200).extract().jsonPath()
                .getList("");
    }

    /** The run's PAUSED entries newer than the entry {@code afterId}. */
    private static List<Map<String, Object>> pausedSince(String deployment, int runId, long afterId) {
        return events(deployment, runId).stream().filter(e -> "PAUSED".equals(e.get("type"))
                && ((Number) e.get("id")).longValue() > afterId).toList();
    }

    @Test
    void abortSkipsWhatHasNotStartedAndLetsTheRunningSystemFinish() {
        try (Lanes lanes = new Lanes("e2e-abort-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.behaviour("lane-01", "lane", Behaviour.succeedAfter(Duration.ofSeconds(3)));
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            Awaitility.await().atMost(WITHIN)
                    .until(() -> "RUNNING".equals(runs(id).getString("[0].state")));

            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);
            JsonPath aborted = awaitState(id, "ABORTED", WITHIN);

            assertThat(aborted.getInt("counts.skipped")).isEqualTo(2);
            assertThat(runs(id).getString("[0].state")).isEqualTo("SUCCEEDED");
            assertThat(lanes.installedSetId(lanes.id("lane-01", "lane"))).isEqualTo(lanes.set("app:2"));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/resume").then().statusCode(409);
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(409);
        }
    }

    @Test
    void aFinishedSystemRolledBackByHandGoesBackToItsPhotograph() {
        try (Lanes lanes = new Lanes("e2e-manual-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "");
            awaitState(id, "FINISHED", WITHIN);
            int runId = runs(id).getInt("[0].id");

            // the lane computer goes back first and finishes nothing until let go: the way back stays under way
            lanes.behaviour("lane-07", "lane", Behaviour.hold());
            // the answer shows the state the command caused (issue 56)
            Api.admin().body("{\"reason\": \"lane 7 is not scoring\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/rollback").then().statusCode(200)
                    .body("state", Matchers.equalTo("ROLLING_BACK"));
            // take again while it goes back: refused, saying what to wait for, and when to ask again
            Api.admin().body("{\"reason\": \"too soon\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/retry").then().statusCode(409)
                    .contentType("application/problem+json")
                    .header("Retry-After", Matchers.matchesPattern("[1-9][0-9]*"))
                    .body("detail", Matchers.equalTo("lane-07 is still rolling back (0 of 4 devices back):"
                            + " take it again once it reads ROLLED_BACK (or ROLLBACK_FAILED)"));
            assertThat(runs(id).getString("[0].state")).isEqualTo("ROLLING_BACK");
            lanes.behaviour("lane-07", "lane", Behaviour.succeed());
            Awaitility.await().atMost(WITHIN)
                    .until(() -> "ROLLED_BACK".equals(runs(id).getString("[0].state")));

            assertThat(runs(id).getString("[0].reason")).isEqualTo("rolled back by hand (lane 7 is not scoring) -- "
                    + "rolled back: 4 of 4 devices on their previous set again");
            assertThat(lanes.installedSetId(lanes.id("lane-07", "lane"))).isEqualTo(lanes.set("app:1"));
            assertThat(lanes.installedSetId(lanes.id("lane-07", "term-b"))).isEqualTo(lanes.set("term:1"));
            JsonPath events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(events.getString("find { it.type == 'ROLLBACK_REQUESTED' }.actor")).isEqualTo("admin");
            // each event's fields come as a JSON object, as stored (run_event.data)
            assertThat(events.getString("find { it.type == 'ROLLBACK_REQUESTED' }.data.reason"))
                    .isEqualTo("lane 7 is not scoring");
            assertThat(events.getInt("find { it.type == 'ORDER_SENT' }.data.order")).isEqualTo(1);
            assertThat(events.getList("find { it.type == 'ORDER_SENT' }.data.devices")).isNotEmpty();
            assertThat(events.getList("type")).contains("SNAPSHOT", "ORDER_SENT", "ASSIGNED", "ROLLBACK_SENT", "ROLLED_BACK");
            Api.admin().body("{}").post("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/rollback")
                    .then().statusCode(409);
        }
    }

    @Test
    void aRolledBackSystemTakenAgainIsPhotographedAfreshAndNoLongerCountsAsFailed() {
        try (Lanes lanes = new Lanes("e2e-retry-").withSetsAndType()) {
            lanes.system("lane-07", "c01").system("lane-08", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.behaviour("lane-07", "lane", Behaviour.failFor(lanes.set("app:2")));
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1, \"maxFailed\": 0");
            JsonPath failed = awaitState(id, "FAILED", WITHIN);
            int runId = runs(id).getInt("find { it.system == 'lane-07' }.id");
            assertThat(runs(id).getString("find { it.system == 'lane-08' }.state")).isEqualTo("PENDING");
            // a failed deployment says which limit stopped it, with its figures (issue 56)
            assertThat(failed.getString("failedBecause"))
                    .isEqualTo("1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started");
            assertThat(failed.getString("summary")).isEqualTo("0 of 2 updated, 1 rolled back; failed: "
                    + "1 system rolled back, maxFailed 0 allows none: no new system started, 1 not started");

            lanes.behaviour("lane-07", "lane", Behaviour.succeed());
            Api.admin().body("{\"reason\": \"lane 7 PSU replaced\"}")
                    .post("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/retry").then().statusCode(200)
                    .body("state", Matchers.equalTo("PENDING"))
                    .body("attempt", Matchers.equalTo(2));
            assertThat(Lanes.deployment(id).getString("state")).isEqualTo("RUNNING");

            JsonPath done = awaitState(id, "FINISHED", Duration.ofSeconds(180));
            assertThat(done.getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            JsonPath events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(events.getList("findAll { it.type == 'SNAPSHOT' }")).hasSize(2);
            assertThat(events.getString("find { it.type == 'TAKEN_AGAIN' }.message")).contains("lane 7 PSU replaced");
            assertThat(lanes.installedSetId(lanes.id("lane-07", "lane"))).isEqualTo(lanes.set("app:2"));
            Api.admin().body("{}").post("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/retry")
                    .then().statusCode(409).contentType("application/problem+json");
        }
    }

    @Test
    void badDeploymentsAreRefusedWithFieldErrorsAndCommandsOutOfPlaceAnswer409() {
        try (Lanes lanes = new Lanes("e2e-bad-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            String[][] cases = {
                    {"{\"manifestId\": " + manifest + "}", "name", "is required"},
                    {"{\"name\": \"x\"}", "manifestId", "is required"},
                    {"{\"name\": \"x\", \"manifestId\": 999999}", "manifestId", "does not exist"},
                    {"{\"name\": \"x\", \"manifestId\": " + manifest + ", \"maxParallel\": 0}", "maxParallel", "between 1"},
                    {"{\"name\": \"x\", \"manifestId\": " + manifest + ", \"maxFailed\": -1}", "maxFailed", "0 or more"},
                    {"{\"name\": \"x\", \"manifestId\": " + manifest + ", \"groups\": [\"c1\", \"c1\"]}", "groups[1]", "more than once"},
                    {"{\"name\": \"x\", \"manifestId\": " + manifest + ", \"orderTimeoutSeconds\": 1}", "orderTimeoutSeconds", "between"},
                    {"{\"name\": \"x\", \"manifestId\": \"three\"}", "manifestId", "must be"},
                    {"{\"name\": \"x\", \"manifestId\": " + manifest + ", \"speed\": \"fast\"}", "speed", "not a known field"},
            };
            int before = Api.viewer().get("/qawk/v1/systemdeployments").then().extract().jsonPath().getList("").size();
            for (String[] c : cases) {
                Api.admin().body(c[0]).post("/qawk/v1/systemdeployments").then().statusCode(400)
                        .contentType("application/problem+json")
                        .body("errors.find { it.field == '" + c[1] + "' }.message", containsString(c[2]));
            }
            assertThat(Api.viewer().get("/qawk/v1/systemdeployments").then().extract().jsonPath().getList("")).hasSize(before);

            int id = Api.admin().body("{\"name\": \"draft\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201)
                    .body("state", Matchers.equalTo("DRAFT")).extract().path("id");
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/pause").then().statusCode(409)
                    .body("detail", containsString("only a RUNNING deployment can be paused"));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/resume").then().statusCode(409);
            Api.viewer().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(403);
            Api.admin().post("/qawk/v1/systemdeployments/999999/start").then().statusCode(404);
            Api.admin().body("{}").post("/qawk/v1/systemdeployments/" + id + "/runs/999999/retry").then().statusCode(404);
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200)
                    .body("state", Matchers.equalTo("ABORTED"));
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(409);
        }
    }
}
