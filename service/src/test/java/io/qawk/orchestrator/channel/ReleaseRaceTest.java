package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.DeploymentCommands;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.RowLockRace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static io.qawk.orchestrator.testsupport.Lanes.channelView;
import static io.qawk.orchestrator.testsupport.Lanes.deployment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A new release supersedes the current one while something else writes it or its deployment at that very moment: the
 * release pass storing its evaluation, another operator pausing the deployment. Both writers are held inside their real
 * transactions until the release request waits for their row; then they commit. The release must wait and go on from
 * what they wrote, never answer 409 "changed by another request" (CI, stop 46: a channel's second release got a 409
 * when the pass stored its first one's completion in between).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ReleaseRaceTest {

    static final Duration WITHIN = Duration.ofSeconds(30);

    @Inject
    DataSource dataSource;

    @Inject
    ReleaseStore store;

    @Inject
    DeploymentCommands commands;

    @Inject
    EntityManager em;

    @Test
    void aReleaseWaitsForThePassStoringTheReleaseItSupersedes() throws Exception {
        try (Lanes lanes = new Lanes("e2e-race-rel-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int channel = lanes.channel("ch", "");
            release(channel, manifest).then().statusCode(200);
            long first = channelView(channel).getLong("release.id");

            Response second = RowLockRace.whileHeld(dataSource, () -> {
                store.halt(first, new ReleasePlanner.Halt(ChannelRelease.HaltCause.SYSTEMS, "held by the race test"));
                em.flush();
            }, "fleet_release", () -> release(channel, manifest));

            assertThat(second.statusCode()).as(second.asString()).isEqualTo(200);
            assertThat(channelView(channel).getLong("release.id")).isNotEqualTo(first);
            assertThat(ChannelReleaseRow.of(dataSource, first)).isEqualTo("SUPERSEDED halted=true");
        }
    }

    @Test
    void aReleaseWaitsForAnOperatorPausingTheDeploymentItAborts() throws Exception {
        try (Lanes lanes = new Lanes("e2e-race-dep-").withSetsAndType()) {
            lanes.system("lane-01", "c01", "ch");
            int manifest = lanes.manifest("2.0", "2");
            // a window that is closed now: the system waits in it, the deployment stays RUNNING until aborted
            int channel = lanes.channel("ch", """
                    "orchestrator": {"windows": {"default": {"schedule": "0 0 3 29 2 ?", "duration": "01:00",
                      "timezone": "UTC"}}}""");
            lanes.discovered(1);
            release(channel, manifest).then().statusCode(200);
            int firstDeployment = channelView(channel).getInt("release.deploymentId");
            await().atMost(WITHIN).until(() -> "RUNNING".equals(deployment(firstDeployment).getString("state")));

            Response second = RowLockRace.whileHeld(dataSource, () -> {
                commands.pause(firstDeployment, "another operator");
                em.flush();
            }, "system_deployment", () -> release(channel, manifest));

            assertThat(second.statusCode()).as(second.asString()).isEqualTo(200);
            assertThat(deployment(firstDeployment).getString("state")).isIn("ABORTING", "ABORTED");
            assertThat(channelView(channel).getInt("release.deploymentId")).isNotEqualTo(firstDeployment);
        }
    }

    private static Response release(int channel, int manifest) {
        return Api.admin().body("{\"manifestId\": " + manifest + "}").put("/qawk/v1/fleets/" + channel);
    }

    /** The release row as stored: its state and whether it is halted. */
    private static final class ChannelReleaseRow {
        static String of(DataSource ds, long id) throws SQLException {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select state, halted from fleet_release where id = " + id)) {
                rs.next();
                return rs.getString(1) + " halted=" + rs.getBoolean(2);
            }
        }
    }
}
