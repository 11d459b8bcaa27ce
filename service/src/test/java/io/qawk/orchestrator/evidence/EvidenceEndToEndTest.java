package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * The evidence record of a deployment, against the real hawkBit with simulated lanes: what an auditor reads once a
 * deployment ended, its digest, and an edit of the stored rows found by {@code …/evidence/verify}.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class EvidenceEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    private static String evidence(int id) {
        return "/qawk/v1/systemdeployments/" + id + "/evidence";
    }

    @Test
    void aDeploymentThatHasNotEndedHasNoRecordYet() {
        try (Lanes lanes = new Lanes("ev-draft-").withSetsAndType()) {
            int id = Api.admin().body("{\"name\": \"ev-draft\", \"manifestId\": " + lanes.manifest("2.0", "2") + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
            Api.viewer().get(evidence(id)).then().statusCode(409)
                    .contentType("application/problem+json")
                    .body("detail", containsString("has not ended"));
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(409)
                    .contentType("application/problem+json");
            Api.viewer().get(evidence(999_999)).then().statusCode(404);
        }
    }

    @Test
    void theRecordOfADeploymentWithARollbackHoldsWhatHappenedAndItsDigestFindsAnEdit() throws Exception {
        try (Lanes lanes = new Lanes("ev-back-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            lanes.behaviour("lane-02", "lane", Behaviour.failFor(lanes.set("app:2")));
            int manifest = lanes.manifest("2.0", "2");
            int id = lanes.deploy(manifest, "\"maxParallel\": 2, \"maxFailed\": 1");
            awaitState(id, "FINISHED", WITHIN);
            // sealed when it ended, before anyone asked for it
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> count("select count(*) from deployment_evidence where deployment_id = " + id) == 1);

            JsonPath record = Api.viewer().get(evidence(id)).then().statusCode(200).extract().jsonPath();
            assertThat(record.getString("format")).isEqualTo("qawk-evidence/1");
            assertThat(record.getString("deployment.state")).isEqualTo("FINISHED");
            assertThat(record.getString("people.createdBy")).isEqualTo("admin");
            assertThat(record.getString("people.startedBy")).isEqualTo("admin");
            assertThat(record.getList("approvals")).isEmpty();
            assertThat(record.getList("commands.action")).contains("create", "start");
            assertThat(record.getInt("manifest.revision")).isEqualTo(1);
            assertThat(record.getList("manifest.components.distributionSet"))
                    .contains("ev-back-app:2", "ev-back-term:2", "ev-back-disp:2");
            assertThat(record.getList("systems.system")).containsExactly("lane-01", "lane-02");

            String back = "systems.find { it.system == 'lane-02' }";
            assertThat(record.getString(back + ".state")).isEqualTo("ROLLED_BACK");
            assertThat(record.getString(back + ".devices.find { it.componentType == 'lane' }.before"))
                    .isEqualTo("ev-back-app:1");
            assertThat(record.getString(back + ".devices.find { it.componentType == 'lane' }.after"))
                    .isEqualTo("ev-back-app:1");
            assertThat(record.getString(back + ".devices.find { it.componentType == 'lane' }.state"))
                    .isEqualTo("ROLLED_BACK");
            assertThat(record.getBoolean(back + ".devices.find { it.componentType == 'lane' }.failed")).isTrue();
            // the terminals went forward, then back: both of hawkBit's actions are in the record
            List<Object> termActions = record.getList(back + ".devices.find { it.controllerId == 'ev-back-lane-02-term-a' }"
                    + ".actions.actionId");
            assertThat(termActions).hasSize(2).doesNotContainNull();
            assertThat(record.getString(back + ".devices.find { it.controllerId == 'ev-back-lane-02-term-a' }.after"))
                    .isEqualTo("ev-back-term:1");
            String ok = "systems.find { it.system == 'lane-01' }";
            assertThat(record.getString(ok + ".state")).isEqualTo("SUCCEEDED");
            assertThat(record.getString(ok + ".devices.find { it.componentType == 'lane' }.after"))
                    .isEqualTo("ev-back-app:2");
            assertThat(record.getList(ok + ".devices.collect { it.actions.size() }")).containsExactly(1, 1, 1, 1);
            assertThat(record.getList(back + ".timeline.type")).contains("SNAPSHOT", "ROLLBACK_STARTED", "ROLLED_BACK");
            assertThat(record.getString(ok + ".census.configurationId")).matches("[0-9a-f]{12}");
            assertThat(record.getString("digest.algorithm")).isEqualTo("SHA-256");
            String digest = record.getString("digest.value");
            assertThat(digest).matches("[0-9a-f]{64}");

            // what an auditor checks with jq -cS 'del(.digest)' | sha256sum: the digest is over the record served
            String served = Api.viewer().get(evidence(id)).then().statusCode(200).extract().asString();
            String canonical = Canonical.text(json.readTree(served));
            assertThat(Canonical.sha256(canonical)).isEqualTo(digest);
            // sealed system by system: a row per system besides the head
            assertThat(count("select count(*) from deployment_evidence_system where deployment_id = " + id)).isEqualTo(2);

            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200)
                    .body("differences", Matchers.empty())
                    .body("matches", equalTo(true)).body("digest", equalTo(digest));
            // the record served again is the one stored: same digest, byte for byte
            assertThat(Api.viewer().get(evidence(id)).then().statusCode(200).extract().path("digest.value").toString())
                    .isEqualTo(digest);

            // CSV: a header and one row per system and device
            String csv = Api.viewer().accept("text/csv").get(evidence(id)).then().statusCode(200)
                    .contentType(containsString("text/csv")).extract().asString();
            List<String> lines = csv.lines().toList();
            assertThat(lines).hasSize(1 + 2 * 4);
            assertThat(lines.get(0)).startsWith("deployment,system,group,system_state,controller_id,component_type");
            assertThat(lines).filteredOn(l -> l.contains(",lane-02,") && l.contains("ev-back-lane-02-lane"))
                    .singleElement().asString().contains("ROLLED_BACK").contains("ev-back-app:1");

            // an edit of the runs after the end: verify names what changed
            Long actionId = record.getLong(ok + ".devices.find { it.componentType == 'lane' }.actions[0].actionId");
            sql("update run_device set action_id = action_id + 1000 where controller_id = 'ev-back-lane-01-lane'");
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200)
                    .body("matches", equalTo(false)).body("recordIntact", equalTo(true))
                    .body("differences[0]", containsString("actionId"));
            sql("update run_device set action_id = " + actionId + " where controller_id = 'ev-back-lane-01-lane'");
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200).body("matches", equalTo(true));

            // a record sealed whole, before records were stored system by system, is served and verified as it was
            sql("delete from deployment_evidence where deployment_id = " + id);
            try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "insert into deployment_evidence (deployment_id, ended_at, sealed_at, record, digest)"
                            + " select id, ended_at, now(), ?, ? from system_deployment where id = ?")) {
                ps.setString(1, canonical);
                ps.setString(2, digest);
                ps.setLong(3, id);
                assertThat(ps.executeUpdate()).isOne();
            }
            assertThat(Canonical.text(json.readTree(Api.viewer().get(evidence(id)).then().statusCode(200).extract()
                    .asString()))).isEqualTo(canonical);
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200).body("matches", equalTo(true));

            // an edit of the stored record itself: its digest no longer matches
            sql("update deployment_evidence set record = replace(record, 'ROLLED_BACK', 'SUCCEEDED')"
                    + " where deployment_id = " + id);
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200)
                    .body("matches", equalTo(false)).body("recordIntact", equalTo(false))
                    .body("recomputed", Matchers.not(equalTo(digest)));
        }
    }

    /**
     * A record is sealed system by system: an edit of one system's stored row breaks the digest, and verify names the
     * system where the stored record and the deployment's rows now part.
     */
    @Test
    void anEditOfOneStoredSystemBreaksTheDigestAndVerifyNamesIt() throws Exception {
        try (Lanes lanes = new Lanes("ev-row-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 3");
            awaitState(id, "FINISHED", WITHIN);
            String digest = Awaitility.await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> {
                        var answer = Api.viewer().get(evidence(id)).then().extract();
                        return answer.statusCode() == 200 ? answer.path("digest.value").toString() : null;
                    }, Objects::nonNull);
            assertThat(count("select count(*) from deployment_evidence_system where deployment_id = " + id)).isEqualTo(3);

            // the system's own state (its keys are sorted: "system" follows it), not its devices'
            sql("update deployment_evidence_system set record = replace(record, '\"state\":\"SUCCEEDED\",\"system\"',"
                    + " '\"state\":\"ROLLED_BACK\",\"system\"') where deployment_id = " + id + " and position = 1");

            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200)
                    .body("recordIntact", equalTo(false)).body("rowsMatch", equalTo(false))
                    .body("recomputed", Matchers.not(equalTo(digest)))
                    .body("differences[1]", equalTo("systems[1].state: recorded \"ROLLED_BACK\", now \"SUCCEEDED\""));
            assertThat(Api.viewer().get(evidence(id)).then().statusCode(200).extract().jsonPath()
                    .getList("systems.state")).containsExactly("SUCCEEDED", "ROLLED_BACK", "SUCCEEDED");
        }
    }

    /**
     * Issue 42, who paused and aborted, and the rules in force: lead pauses a deployment, admin resumes and aborts it;
     * the record still names lead as who paused it (the deployment itself forgets it on resume) and the type's rules.
     */
    @Test
    void theRecordNamesWhoPausedThoughItWasResumedWhoAbortedAndTheRulesInForce() {
        String why = "app 2 speaks the v2 terminal protocol";
        try (Lanes lanes = new Lanes("ev-pause-").withSetsAndType()) {
            lanes.appNeedsTerminal(why);
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.behaviour("lane-01", "term-a", Behaviour.hold()); // lane-01 stays under way until we let it go
            lanes.discovered(2);
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 1");
            String deployment = "/qawk/v1/systemdeployments/" + id;
            Awaitility.await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() ->
                    "RUNNING".equals(Lanes.runs(id).getString("find { it.system == 'lane-01' }.state")));

            Api.lead().post(deployment + "/pause").then().statusCode(200).body("pausedBy", equalTo("lead"));
            Api.admin().post(deployment + "/resume").then().statusCode(200);
            Api.admin().post(deployment + "/abort").then().statusCode(200);
            lanes.behaviour("lane-01", "term-a", Behaviour.succeed());
            awaitState(id, "ABORTED", WITHIN);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Api.viewer().get(evidence(id)).then().extract().statusCode() == 200);

            JsonPath record = Api.viewer().get(evidence(id)).then().statusCode(200).extract().jsonPath();
            assertThat(record.getString("deployment.state")).isEqualTo("ABORTED");
            assertThat(record.getString("people.startedBy")).isEqualTo("admin");
            assertThat(record.getString("people.pausedBy")).as("who paused it, though it was resumed").isEqualTo("lead");
            assertThat(record.getString("people.abortedBy")).isEqualTo("admin");
            assertThat(record.getList("commands.action")).containsSubsequence("start", "pause", "resume");
            assertThat(record.getString("commands.find { it.action == 'pause' }.actor")).isEqualTo("lead");
            assertThat(record.getList("systems.find { it.system == 'lane-01' }.timeline.type"))
                    .contains("PAUSED", "RESUMED");
            assertThat(record.getString("systems.find { it.system == 'lane-02' }.state")).isEqualTo("SKIPPED");

            assertThat(record.getLong("rulesInForce.systemTypeId")).isEqualTo(lanes.typeId);
            assertThat(record.getString("rulesInForce.systemType")).isEqualTo(lanes.prefix + "lane");
            assertThat(record.getList("rulesInForce.rules")).hasSize(1);
            assertThat(record.getString("rulesInForce.rules[0].why")).isEqualTo(why);
            assertThat(record.getString("rulesInForce.rules[0].if.lane")).isEqualTo(lanes.prefix + "app:[2,)");
            Api.viewer().get(evidence(id) + "/verify").then().statusCode(200).body("matches", equalTo(true));
        }
    }

    private long count(String query) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(query);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void sql(String statement) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(statement)) {
            assertThat(ps.executeUpdate()).as(statement).isPositive();
        }
    }
}
