package io.qawk.orchestrator.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gap between orders against the real hawkBit: for a lane (terminals and display at order 1, the lane computer at
 * order 2), the time from the last device of order 1 finishing in hawkBit to hawkBit accepting order 2's assignment,
 * on the run's timeline and in {@code qawk_order_gap_seconds} by system type.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class OrderGapEndToEndTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @Test
    void theGapFromOrderOnesLastDeviceToOrderTwosAssignmentIsOnTheTimelineAndInTheMetrics() {
        try (Lanes lanes = new Lanes("e2e-gap-").withSetsAndType()) {
            lanes.system("lane-01", "c01");
            lanes.discovered(1);
            lanes.preinstall("1");
            int manifest = lanes.manifest("2.0", "2");
            String type = "system_type=\"" + lanes.prefix + "lane\"";
            String before = scrape();
            double countBefore = sample(before, "qawk_order_gap_seconds_count", type);
            double sumBefore = sample(before, "qawk_order_gap_seconds_sum", type);

            Instant started = Instant.now();
            int id = lanes.deploy(manifest, "\"maxParallel\": 1");
            awaitState(id, "FINISHED", WITHIN);
            Duration took = Duration.between(started, Instant.now());

            int runId = runs(id).getInt("[0].id");
            List<Map<String, Object>> events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId
                    + "/events").then().statusCode(200).extract().jsonPath().getList("");
            List<Map<String, Object>> gaps = events.stream().filter(e -> "ORDER_GAP".equals(e.get("type"))).toList();
            assertThat(gaps).as("one gap, between order 1 and order 2: %s", events).hasSize(1);
            @SuppressWarnings("unchecked")
            Map<String, Object> data = (Map<String, Object>) gaps.get(0).get("data");
            assertThat(data).containsEntry("finishedOrder", 1).containsEntry("order", 2);
            Duration gap = Duration.parse((String) data.get("gap"));
            Instant finishedAt = Instant.parse((String) data.get("finishedAt"));
            assertThat(gap).as("gap").isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(took);
            assertThat(finishedAt).isAfter(started.minusSeconds(1));
            assertThat((String) gaps.get(0).get("message")).startsWith("order 2 assigned ")
                    .contains(" after order 1's last device (" + data.get("lastDevice") + ") finished in hawkBit at ");

            // the start is hawkBit's: when the last device of order 1 finished, as its action's last status says
            // (the action's own lastModifiedAt is not moved by the closing feedback on 0.3.0M7), not when Qawk noticed
            long lastFinished = 0;
            String last = null;
            for (String role : List.of("term-a", "term-b", "display")) {
                String device = lanes.id("lane-01", role);
                long set = lanes.set(role.equals("display") ? "disp:2" : "term:2");
                for (JsonNode a : lanes.hawkbit.actions(device)) {
                    JsonNode full = lanes.hawkbit.action(device, a.path("id").asLong());
                    if (full.path("_links").path("distributionset").path("href").asText("").endsWith("/" + set)) {
                        JsonNode newest = lanes.hawkbit.get("/rest/v1/targets/" + device + "/actions/"
                                + a.path("id").asLong() + "/status?limit=1&sort=id:DESC").path("content").path(0);
                        if (newest.path("reportedAt").asLong() > lastFinished) {
                            lastFinished = newest.path("reportedAt").asLong();
                            last = device;
                        }
                    }
                }
            }
            String lastDevice = (String) data.get("lastDevice");
            assertThat(lastDevice).as("the last of order 1 (by the actions' status: %s)", last).isIn(
                    lanes.id("lane-01", "term-a"), lanes.id("lane-01", "term-b"), lanes.id("lane-01", "display"));
            assertThat(finishedAt).as("its target's installedAt").isEqualTo(Instant.ofEpochMilli(
                    lanes.hawkbit.get("/rest/v1/targets/" + lastDevice).path("installedAt").asLong()));
            assertThat(Duration.between(Instant.ofEpochMilli(lastFinished), finishedAt).abs())
                    .as("finishedAt %s against the last action status %s (%s)", finishedAt,
                            Instant.ofEpochMilli(lastFinished), last)
                    .isLessThanOrEqualTo(Duration.ofMillis(500));

            // the lane computer's assignment was accepted the gap after that
            Instant assigned = events.stream().filter(e -> "ASSIGNED".equals(e.get("type"))
                            && ((String) e.get("message")).contains(lanes.id("lane-01", "lane")))
                    .map(e -> Instant.parse((String) e.get("at"))).findFirst().orElseThrow();
            assertThat(Duration.between(finishedAt, assigned).minus(gap).abs()).isLessThan(Duration.ofMillis(1));

            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                String m = scrape();
                assertThat(sample(m, "qawk_order_gap_seconds_count", type)).isEqualTo(countBefore + 1);
                assertThat(sample(m, "qawk_order_gap_seconds_sum", type) - sumBefore)
                        .isCloseTo(gap.toNanos() / 1e9, Offset.offset(0.01));
                assertThat(m).contains("qawk_order_gap_seconds_bucket{");
            });
        }
    }

    private static String scrape() {
        return Api.anonymous().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** Sum of the samples of {@code name} whose labels contain {@code label}; 0 when there is none yet. */
    private static double sample(String scrape, String name, String label) {
        double sum = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{") && line.substring(0, line.lastIndexOf('}') + 1).contains(label)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
