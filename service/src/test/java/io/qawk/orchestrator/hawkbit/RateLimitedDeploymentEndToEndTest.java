package io.qawk.orchestrator.hawkbit;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.ForwardedForProxy;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.RateLimitedProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.assertj.core.api.SoftAssertions;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.qawk.orchestrator.testsupport.Lanes.awaitState;
import static io.qawk.orchestrator.testsupport.Lanes.runs;
import static org.awaitility.Awaitility.await;

/**
 * Issue 58 against hawkBit 0.3.0M7's own DoS filter, with the service as a client on a public address (a proxy sets
 * {@code X-Forwarded-For}; {@link RateLimitedProfile}): hawkBit allows it 16 reads and 2 writes a second, and
 * the service's budget is set to that limit. A deployment of four lanes must wait on the budget, and once on a 429
 * with {@code Retry-After} (a quota refusing twice at the proxy while order 1 is out). It finishes right: every system
 * updated, nothing rolled back, one action per device for its new set, no 5xx from the service's API, at most 1 % of
 * the service's requests refused by hawkBit, and the timeline says where it waited on the limit.
 */
@QuarkusTest
@TestProfile(RateLimitedProfile.class)
class RateLimitedDeploymentEndToEndTest {

    private static final Logger LOG = Logger.getLogger(RateLimitedDeploymentEndToEndTest.class);
    private static final List<String> SYSTEMS = List.of("lane-01", "lane-02", "lane-03", "lane-04");
    private static final List<String> ROLES = List.of("lane", "term-a", "term-b", "display");

    @Test
    void aDeploymentThroughHawkbitsDosFilterKeepsItsLimitAndFinishesRight() {
        String proxy = System.getProperty(RateLimitedProfile.PROXY);
        AtomicInteger serverErrors = new AtomicInteger();
        List<String> errors = new ArrayList<>();
        Filter fiveHundreds = (req, res, ctx) -> {
            Response r = ctx.next(req, res);
            if (r.statusCode() >= 500) {
                serverErrors.incrementAndGet();
                errors.add(req.getMethod() + " " + req.getURI() + ": " + r.statusCode());
            }
            return r;
        };
        List<Filter> before = new ArrayList<>(RestAssured.filters());
        RestAssured.filters(fiveHundreds);
        try (Lanes lanes = new Lanes("rl-", System.getProperty(RateLimitedProfile.URL),
                System.getProperty(RateLimitedProfile.USER),
                System.getProperty(RateLimitedProfile.PASSWORD)).withSetsAndType()) {
            SYSTEMS.forEach(s -> lanes.system(s, "c01"));
            lanes.discovered(SYSTEMS.size());
            lanes.preinstall("1");
            // one terminal takes a while, so that order 1 is still out when the quota refuses
            String slow = lanes.id("lane-01", "term-a");
            lanes.devices.setBehaviour(slow, Behaviour.succeedAfter(Duration.ofSeconds(6)));

            long started = System.nanoTime();
            int id = lanes.deploy(lanes.manifest("2.0", "2"), "\"maxParallel\": 4, \"orderTimeoutSeconds\": 120");
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> lanes.devices.lastAction(slow).isPresent()
                            && lanes.hawkbit.actions(slow).size() >= 2);
            ForwardedForProxy.refuseNext(proxy, 2, 3);
            JsonPath done = awaitState(id, "FINISHED", Duration.ofSeconds(300));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            Map<String, Long> counts = ForwardedForProxy.counts(proxy);
            double counted = sum("qawk_hawkbit_http_requests_total");
            double waited = sum("qawk_hawkbit_waited_seconds_total");
            double paused = sum("qawk_hawkbit_rate_limited_seconds_total");
            LOG.infof("rate-limited deployment of %d lanes: %s in %d s; the service counted %.0f requests, waited"
                    + " %.1f s for turns in all, paused %.1f s by 429s; at the proxy: %s", SYSTEMS.size(),
                    done.getString("summary"), took.toSeconds(), counted, waited, paused, counts);

            SoftAssertions soft = new SoftAssertions();
            soft.assertThat(done.getString("summary")).as("runs: %s", runs(id).getList("reason"))
                    .isEqualTo(SYSTEMS.size() + " of " + SYSTEMS.size() + " updated, 0 rolled back");
            JsonPath runs = runs(id);
            List<String> everyType = new ArrayList<>();
            List<String> limited = new ArrayList<>();
            for (Map<String, Object> run : runs.<Map<String, Object>>getList("")) {
                List<Map<String, Object>> events = Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs/"
                        + run.get("id") + "/events").then().statusCode(200).extract().jsonPath().getList("");
                events.forEach(e -> everyType.add((String) e.get("type")));
                events.stream().filter(e -> "RATE_LIMITED".equals(e.get("type")))
                        .forEach(e -> limited.add(run.get("system") + ": " + e.get("message")));
            }
            soft.assertThat(everyType).doesNotContain("ROLLBACK_STARTED", "DEVICE_FAILED", "ROLLED_BACK");
            soft.assertThat(limited).as("timeline entries saying the service waited on hawkBit's limit").isNotEmpty()
                    .allMatch(m -> m.matches("lane-0\\d: waited \\d+ s on hawkBit's rate limit \\(429\\) .*; order"
                            + " timeouts extended by \\d+ s"));
            for (String system : SYSTEMS) {
                for (String role : ROLES) {
                    String device = lanes.id(system, role);
                    long newSet = lanes.set(setOf(role) + ":2");
                    // list entries carry no set link: each action read by itself
                    long actions = lanes.hawkbit.actions(device).stream()
                            .map(a -> lanes.hawkbit.action(device, a.path("id").asLong()))
                            .filter(a -> a.path("_links").path("distributionset").path("href").asText()
                                    .endsWith("/distributionsets/" + newSet)).count();
                    soft.assertThat(actions).as("actions of %s for its new set", device).isEqualTo(1);
                    soft.assertThat(lanes.installedSetId(device)).as(device).isEqualTo(newSet);
                }
            }
            soft.assertThat(serverErrors.get()).as("5xx from the service's API: %s", errors).isZero();
            long requests = counts.get("requests");
            soft.assertThat(counts.get("refusedByHawkbit")).as("of %d requests", requests)
                    .isLessThanOrEqualTo(requests / 100);
            soft.assertThat(counts.get("maxReadsPerSecond")).as("reads in one second")
                    .isLessThanOrEqualTo(RateLimitedProfile.MAX_READ + 2L);
            soft.assertThat(counts.get("maxWritesPerSecond")).as("writes in one second")
                    .isLessThanOrEqualTo(RateLimitedProfile.MAX_WRITE + 2L);
            soft.assertThat(counted).as("the service's own count against the proxy's %d", requests)
                    .isBetween(requests - 5.0, requests + 5.0);
            soft.assertThat(waited).as("seconds the service's requests waited for their turn").isPositive();
            soft.assertThat(paused).as("seconds the quota's two 429s paused requests").isGreaterThanOrEqualTo(3.0);
            soft.assertAll();
        } finally {
            RestAssured.replaceFiltersWith(before);
        }
    }

    private static String setOf(String role) {
        return switch (role) {
            case "lane" -> "app";
            case "display" -> "disp";
            default -> "term";
        };
    }

    /** A metric of the service summed over its labels. */
    private static double sum(String metric) {
        String scrape = Api.viewer().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + metric + "\\{[^}]*} (\\S+)$").matcher(scrape);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }
}
