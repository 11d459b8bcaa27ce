package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.EngineLock;
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

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Qawk's records put back behind hawkBit, as a restore of last night's dump or an asynchronous standby promoted does:
 * the database is copied while a deployment is under way and put back once hawkBit has moved on. The ledger is
 * hawkBit's: Qawk says its records are behind, moves nothing on them, and a person adopts what hawkBit shows.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class RecordsBehindEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(150);
    static final List<String> ROLES = List.of("lane", "term-a", "term-b", "display");
    static final List<String> LANES = List.of("lane-01", "lane-02", "lane-03");

    @Inject
    DataSource dataSource;

    @Test
    void aRestoredDumpTakenWhileOrderOneWasOutMovesNothingAndSaysWhatHawkbitShows() throws Exception {
        try (Lanes lanes = new Lanes("e2e-behind-").withSetsAndType()) {
            for (String lane : LANES) {
                lanes.system(lane, "c01");
            }
            lanes.discovered(3);
            lanes.preinstall("1");
            for (String lane : LANES) {
                for (String role : List.of("term-a", "term-b", "display")) {
                    lanes.behaviour(lane, role, Behaviour.hold());
                }
            }
            lanes.behaviour("lane-03", "lane", Behaviour.failFor(lanes.set("app:2")));
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 3, \"maxFailed\": 2");
            String base = "/qawk/v1/systemdeployments/" + id;
            // order 1 out on every lane, each sent recorded
            Awaitility.await().atMost(WITHIN).until(() -> orderOneRecorded(id));

            copyDatabase();

            for (String lane : LANES) {
                for (String role : List.of("term-a", "term-b", "display")) {
                    lanes.behaviour(lane, role, Behaviour.succeed());
                }
            }
            JsonPath ended = awaitState(id, "FINISHED", WITHIN);
            assertThat(ended.getString("summary")).isEqualTo("2 of 3 updated, 1 rolled back");
            Map<String, Integer> actionsBefore = actionCounts(lanes);

            restoreDatabase(id);

            // Qawk finds that its records are behind, on every lane, and says what hawkBit shows
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> runs(id).getList("divergence").stream()
                    .allMatch(w -> w != null && w.toString().startsWith("records behind hawkBit: ")));
            JsonPath runs = runs(id);
            String lane3 = runs.getString("find { it.system == 'lane-03' }.divergence");
            String lane03 = lanes.id("lane-03", "lane");
            long laneAction = lanes.hawkbit.actions(lane03).stream()
                    .map(a -> lanes.hawkbit.action(lane03, a.path("id").asLong()))
                    .filter(a -> a.path("_links").path("distributionset").path("href").asText()
                            .endsWith("/" + lanes.set("app:2"))).findFirst().orElseThrow().path("id").asLong();
            assertThat(lane3).contains(lanes.id("lane-03", "lane") + ": action").contains(String.valueOf(laneAction))
                    .contains("sent by Qawk's user, in no record").contains("hawkBit shows");
            assertThat(Lanes.deployment(id).getInt("diverged")).isEqualTo(3);
            int run3 = runs.getInt("find { it.system == 'lane-03' }.id");
            List<Map<String, Object>> timeline = Api.viewer().get(base + "/runs/" + run3 + "/events").then()
                    .statusCode(200).extract().jsonPath().getList("");
            assertThat(timeline).anySatisfy(e -> {
                assertThat(e.get("type")).isEqualTo("DIVERGED");
                assertThat(e.get("message").toString()).contains(String.valueOf(laneAction))
                        .contains("nothing new is sent to this system");
            });
            String ready = Api.anonymous().get("/q/health/ready").then().statusCode(200).extract().asString();
            assertThat(ready).contains("deployment " + id);
            // at least this deployment's three (the suite's other deployments share the database the copy put back)
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> divergedGauge() >= 3.0);

            // nothing is assigned that hawkBit did not already have; the rolled-back lane is not sent 2.0 again
            Awaitility.await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(20))
                    .until(() -> actionCounts(lanes).equals(actionsBefore));
            assertThat(lanes.installedSetId(lanes.id("lane-03", "lane"))).isEqualTo(lanes.set("app:1"));

            // a person adopts what hawkBit shows, for all: the runs take the states hawkBit's actions prove
            Api.admin().post(base + "/adopt").then().statusCode(200);
            JsonPath adopted = awaitState(id, "FINISHED", Duration.ofSeconds(60));
            assertThat(adopted.getString("summary")).isEqualTo("2 of 3 updated, 1 rolled back");
            assertThat(adopted.getInt("diverged")).isZero();
            JsonPath after = runs(id);
            assertThat(after.getString("find { it.system == 'lane-01' }.state")).isEqualTo("SUCCEEDED");
            assertThat(after.getString("find { it.system == 'lane-02' }.state")).isEqualTo("SUCCEEDED");
            assertThat(after.getString("find { it.system == 'lane-03' }.state")).isEqualTo("ROLLED_BACK");
            Api.admin().post(base + "/adopt").then().statusCode(409).contentType("application/problem+json");
            assertThat(actionCounts(lanes)).isEqualTo(actionsBefore);
        }
    }

    @Test
    void lostCommitsOfASentOrderAreFoundInHawkbitAndNothingIsSentOrPhotographedAgain() throws Exception {
        try (Lanes lanes = new Lanes("e2e-lost-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            for (String role : List.of("term-a", "term-b", "display")) {
                lanes.behaviour("lane-01", role, Behaviour.hold());
            }
            lanes.behaviour("lane-01", "lane", Behaviour.hold());
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            String base = "/qawk/v1/systemdeployments/" + id;
            Awaitility.await().atMost(WITHIN).until(() -> recordedSent(id, 1) == 3);
            int runId = runs(id).getInt("[0].id");
            long photographs = events(base, runId, "SNAPSHOT");

            // the standby's copy: photographed, order 1 sent; the commits after it (order 2's "sent") are lost
            copyDatabase();
            for (String role : List.of("term-a", "term-b", "display")) {
                lanes.behaviour("lane-01", role, Behaviour.succeed());
            }
            String lane = lanes.id("lane-01", "lane");
            Awaitility.await().atMost(WITHIN).until(() -> recordedSent(id, 2) == 1);
            Map<String, Integer> actionsBefore = actionCounts(lanes, List.of("lane-01"));
            restoreDatabase(id);

            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> runs(id).getString("[0].divergence") != null);
            long laneAction = lanes.hawkbit.actions(lane).get(0).path("id").asLong();
            assertThat(runs(id).getString("[0].divergence")).startsWith("records behind hawkBit: ")
                    // what the copy recorded of the lane's device depends on how far its order-2 pass had got when
                    // the copy was taken (waiting, or its assignment decided but not yet confirmed): either way, no
                    // record names the action
                    .containsPattern(Pattern.quote(lane + ": action " + laneAction
                            + " sent by Qawk's user, in no record (recorded ") + "(WAITING|ASSIGNED)\\)");
            // nothing sent again, no new photograph; the device's "before" is still the photograph's
            Awaitility.await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(20))
                    .until(() -> actionCounts(lanes, List.of("lane-01")).equals(actionsBefore));
            assertThat(events(base, runId, "SNAPSHOT")).isEqualTo(photographs);
            assertThat(runs(id).getString("[0].components.lane[0].fromSet")).endsWith("app:1");

            // a rollback would be planned from records hawkBit contradicts: refused until a person adopts
            Api.admin().post(base + "/runs/" + runId + "/rollback").then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", Matchers.containsString("records are behind hawkBit, and a rollback would be planned"));
            assertThat(runs(id).getString("[0].state")).isEqualTo("RUNNING");

            // adopted part-way, hawkBit's action still open: the lane's record names it as sent, and the engine waits
            // for it as it would have, sending nothing again
            Api.admin().post(base + "/runs/" + runId + "/adopt").then().statusCode(200);
            JsonPath adopted = runs(id);
            assertThat(adopted.getString("[0].divergence")).isNull();
            assertThat(adopted.getString("[0].state")).isEqualTo("RUNNING");
            assertThat(events(base, runId, "ADOPTED")).isOne();
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            assertThat(awaitState(id, "FINISHED", Duration.ofSeconds(90)).getString("summary"))
                    .isEqualTo("1 of 1 updated, 0 rolled back");
            assertThat(actionCounts(lanes, List.of("lane-01"))).isEqualTo(actionsBefore);
            assertThat(runs(id).getString("[0].components.lane[0].fromSet")).endsWith("app:1");
        }
    }

    @Test
    void aPendingSystemThatQawksLostWorkAlreadyMovedIsPhotographedOnWhatItRanBeforeAndNothingIsSentTwice()
            throws Exception {
        List<String> systems = List.of("lane-01", "lane-02");
        try (Lanes lanes = new Lanes("e2e-rephoto-").withSetsAndType()) {
            for (String lane : systems) {
                lanes.system(lane, "c01");
            }
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.behaviour("lane-01", "lane", Behaviour.hold());
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            String base = "/qawk/v1/systemdeployments/" + id;
            // lane 1's last order out and recorded; lane 2 pending, not photographed
            Awaitility.await().atMost(WITHIN).until(() -> recordedSent(id, 2) == 1);
            assertThat(runs(id).getString("find { it.system == 'lane-02' }.state")).isEqualTo("PENDING");

            copyDatabase();

            // the work the restore loses: lane 1 finishes, lane 2 is photographed on 1.0 and gets 2.0
            lanes.behaviour("lane-01", "lane", Behaviour.succeed());
            assertThat(awaitState(id, "FINISHED", WITHIN).getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            String lane02 = lanes.id("lane-02", "lane");
            assertThat(lanes.installedSetId(lane02)).isEqualTo(lanes.set("app:2"));
            Map<String, Integer> actionsBefore = actionCounts(lanes, systems);

            restoreDatabase(id);

            // lane 2 is photographed again, on what it ran before Qawk's lost work moved it, and nothing is sent twice
            JsonPath ended = awaitState(id, "FINISHED", WITHIN);
            JsonPath runs = runs(id);
            assertThat(runs.getString("find { it.system == 'lane-02' }.state")).isEqualTo("SUCCEEDED");
            assertThat(runs.getString("find { it.system == 'lane-02' }.components.lane[0].fromSet")).endsWith("app:1");
            assertThat(runs.getString("find { it.system == 'lane-02' }.components.terminal[0].fromSet"))
                    .endsWith("term:1");
            int run2 = runs.getInt("find { it.system == 'lane-02' }.id");
            long laneAction = lanes.hawkbit.actions(lane02).stream()
                    .map(a -> lanes.hawkbit.action(lane02, a.path("id").asLong()))
                    .filter(a -> a.path("_links").path("distributionset").path("href").asText()
                            .endsWith("/" + lanes.set("app:2"))).findFirst().orElseThrow().path("id").asLong();
            List<Map<String, Object>> timeline = Api.viewer().get(base + "/runs/" + run2 + "/events").then()
                    .statusCode(200).extract().jsonPath().getList("");
            assertThat(timeline).anySatisfy(e -> {
                assertThat(e.get("type")).isEqualTo("PHOTOGRAPH_REBUILT");
                assertThat(e.get("message").toString()).contains(lane02).contains("action " + laneAction)
                        .contains("app:2").contains("app:1").contains("rebuilt from hawkBit's action history");
            });
            assertThat(ended.getString("summary")).isEqualTo("2 of 2 updated, 0 rolled back");
            Awaitility.await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(20))
                    .until(() -> actionCounts(lanes, systems).equals(actionsBefore));
        }
    }

    /** How many devices of the deployment's order {@code order} Qawk recorded as sent (an action id, ASSIGNED). */
    private int recordedSent(int id, int order) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement q = c.prepareStatement("select count(*) from run_device d join system_run r"
                     + " on r.id = d.run_id where r.deployment_id = ? and d.update_order = ? and d.action_id is not null"
                     + " and d.state = 'ASSIGNED'")) {
            q.setLong(1, id);
            q.setInt(2, order);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static long events(String base, int runId, String type) {
        List<Map<String, Object>> all = Api.viewer().get(base + "/runs/" + runId + "/events").then().statusCode(200)
                .extract().jsonPath().getList("");
        return all.stream().filter(e -> type.equals(e.get("type"))).count();
    }

    /** Every lane's order 1 devices recorded as sent (an action id in Qawk's records). */
    private boolean orderOneRecorded(int id) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement q = c.prepareStatement("select count(*) from run_device d join system_run r"
                     + " on r.id = d.run_id where r.deployment_id = ? and d.update_order = 1 and d.action_id is not null"
                     + " and d.state = 'ASSIGNED'")) {
            q.setLong(1, id);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 9;
            }
        }
    }

    private static Map<String, Integer> actionCounts(Lanes lanes) {
        return actionCounts(lanes, LANES);
    }

    private static Map<String, Integer> actionCounts(Lanes lanes, List<String> systems) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String lane : systems) {
            for (String role : ROLES) {
                out.put(lane + "/" + role, lanes.hawkbit.actions(lanes.id(lane, role)).size());
            }
        }
        return out;
    }

    /** Qawk's tables (and their columns one can write), as a dump holds them. */
    private Map<String, String> tables() throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select t.table_name, string_agg(c.column_name, ', ' order by c.ordinal_position)"
                     + " from information_schema.tables t join information_schema.columns c"
                     + " on c.table_schema = t.table_schema and c.table_name = t.table_name"
                     + " where t.table_schema = 'public' and t.table_type = 'BASE TABLE'"
                     + " and t.table_name <> 'flyway_schema_history' and c.is_generated = 'NEVER'"
                     + " group by t.table_name order by t.table_name")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** The dump: every table copied into the schema {@code dump}, in one transaction (one snapshot). */
    private void copyDatabase() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("set transaction isolation level repeatable read");
            st.execute("drop schema if exists dump cascade");
            st.execute("create schema dump");
            for (String table : tables().keySet()) {
                st.execute("create table dump." + table + " as select * from public." + table);
            }
            c.commit();
        }
    }

    /**
     * The restore: every table put back to the dump in one transaction, while the deployment's engine lock is held
     * (as if Qawk were down meanwhile); sequences go on, as they would after Qawk's own writes.
     */
    private void restoreDatabase(int deploymentId) throws SQLException {
        Map<String, String> tables = tables();
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(true);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                try (PreparedStatement q = lock.prepareStatement("select pg_try_advisory_lock(?, ?)")) {
                    q.setInt(1, EngineLock.NAMESPACE);
                    q.setInt(2, deploymentId);
                    try (ResultSet rs = q.executeQuery()) {
                        rs.next();
                        return rs.getBoolean(1);
                    }
                }
            });
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.execute("set local session_replication_role = replica"); // the dump's rows, in any order
                List<String> names = new ArrayList<>(tables.keySet());
                for (String table : names) {
                    st.execute("delete from public." + table);
                }
                for (String table : names) {
                    String columns = tables.get(table);
                    st.execute("insert into public." + table + " (" + columns + ") overriding system value select "
                            + columns + " from dump." + table);
                }
                c.commit();
            }
            try (PreparedStatement q = lock.prepareStatement("select pg_advisory_unlock(?, ?)")) {
                q.setInt(1, EngineLock.NAMESPACE);
                q.setInt(2, deploymentId);
                q.execute();
            }
        }
    }


    /** The gauge {@code qawk_runs_diverged} as the service's metrics say it now. */
    private static double divergedGauge() {
        Matcher m = Pattern.compile("(?m)^qawk_runs_diverged(?:\\{[^}]*\\})? ([0-9.]+)$")
                .matcher(Api.viewer().get("/q/metrics").then().statusCode(200).extract().asString());
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }
}
