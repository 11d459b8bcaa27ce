package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine reacts instead of waiting for its tick: with a long interval (60 s) a lane of two orders is updated
 * end to end in far less than one interval, because a start brings the next pass forward and passes come every busy
 * interval (1 s) while devices are due; with nothing due, the engine is quiet again.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@TestProfile(ReactingEngineEndToEndTest.LongInterval.class)
class ReactingEngineEndToEndTest {

    /** A production-like long idle interval, with the busy interval at its default. */
    public static class LongInterval implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("qawk.engine.interval", "60s", "qawk.engine.initial-delay", "1s");
        }
    }

    /** Less than one interval: a deployment that waited for the tick would take at least two (start, order 2). */
    static final Duration WITHIN = Duration.ofSeconds(45);

    private static double passes() {
        String text = Api.viewer().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(l -> l.startsWith("qawk_engine_pass_seconds_count"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void aStartedDeploymentIsSentAtOnceAndEachOrderFollowsAsSoonAsTheLastOneFinished() {
        try (Lanes lanes = new Lanes("react-").withSetsAndType()) {
            lanes.system("lane-07", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            int manifest = lanes.manifest("2.0", "2");
            // the first pass after start-up has come and gone: the next tick is about a minute away
            await().atMost(Duration.ofSeconds(30)).until(() -> passes() >= 1);

            long started = System.nanoTime();
            int id = lanes.deploy(manifest, "");
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> !"PENDING".equals(runs(id).getString("[0].state"))); // photographed, order 1 sent
            Duration toFirstOrder = Duration.ofNanos(System.nanoTime() - started);

            awaitState(id, "FINISHED", WITHIN);
            Duration toFinished = Duration.ofNanos(System.nanoTime() - started);
            assertThat(runs(id).getString("[0].state")).isEqualTo("SUCCEEDED");
            assertThat(lanes.installedSetId(lanes.id("lane-07", "lane"))).isEqualTo(lanes.set("app:2"));
            assertThat(toFirstOrder).as("first order sent after the start").isLessThan(Duration.ofSeconds(10));
            assertThat(toFinished).as("both orders and the end, with a 60 s interval").isLessThan(WITHIN);

            // nothing due: no pass every busy interval any more (at most the one that saw the end)
            double after = passes();
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(20)).until(() -> passes() <= after + 1);
        }
    }
}
