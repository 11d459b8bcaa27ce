package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.engine.Photographer;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.RowLockRace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.deployment;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator aborts a deployment in the moment the engine starts one of its systems: the engine's transaction that
 * stores the system's photograph (and moves it to RUNNING) holds the run's row, the abort read the run as pending
 * before and waits for that row. It must answer 200, and the system the engine started finishes like any under way;
 * it answered 500 ("a run cannot go from RUNNING to SKIPPED") and aborted nothing (seen in a whole run).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class AbortRaceTest {

    static final Duration WITHIN = Duration.ofSeconds(30);

    @Inject
    DataSource dataSource;

    @Inject
    Photographer photographer;

    @Inject
    RunStore store;

    @Test
    void anAbortWhileTheEngineStartsASystemSkipsTheRestAndLetsThatOneFinish() throws Exception {
        try (Lanes lanes = new Lanes("e2e-abort-race-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01");
            lanes.discovered(2);
            lanes.preinstall("1");
            // a window that is closed now: both systems wait in it, so the engine starts neither on its own
            int id = lanes.deploy(lanes.manifest("2.0", "2"), """
                    "windows": {"default": {"schedule": "0 0 3 29 2 ?", "duration": "01:00", "timezone": "UTC"}}""");
            await().atMost(WITHIN).until(() -> runs(id).<String>getList("state").stream().allMatch("PENDING"::equals)
                    && runs(id).<String>getList("reason").stream().allMatch(r -> r != null && r.startsWith("waiting for")));
            long started = runs(id).getLong("find { it.system == 'lane-01' }.id");

            // the engine's own step: lane-01 photographed (asking hawkBit), then stored, which starts it
            Map<Long, List<RunDevice>> photo = photographer.photograph(List.of(started));
            Response abort = RowLockRace.whileHeld(dataSource, () -> store.storePhotographs(photo), "system_run",
                    () -> Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort"));

            assertThat(abort.statusCode()).as(abort.asString()).isEqualTo(200);
            assertThat(runs(id).getString("find { it.system == 'lane-01' }.state")).isEqualTo("RUNNING");
            assertThat(runs(id).getString("find { it.system == 'lane-02' }.state")).isEqualTo("SKIPPED");
            assertThat(deployment(id).getString("state")).isEqualTo("ABORTING");
            Lanes.awaitState(id, "ABORTED", Duration.ofSeconds(120));
            assertThat(runs(id).getString("find { it.system == 'lane-01' }.state")).isEqualTo("SUCCEEDED");
        }
    }
}
