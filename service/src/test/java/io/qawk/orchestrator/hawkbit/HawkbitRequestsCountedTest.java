package io.qawk.orchestrator.hawkbit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.http.Fault;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Qawk's requests to hawkBit counted by kind, method, path family and outcome; a 429 waited out for every caller of
 * its kind and sent again, never a failure; a budget that no second exceeds.
 */
@QuarkusTest
class HawkbitRequestsCountedTest extends WireMockHawkbit {

    @Test
    void everyRequestIsCountedByKindMethodFamilyAndOutcomeWithoutIds() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(targets(List.of("dev-1"), 1))));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).willReturn(okJson("{\"a\":\"1\"}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-9/attributes")).willReturn(aResponse().withStatus(404)));
        hawkbit.stubFor(delete(urlEqualTo("/rest/v1/targets/dev-1/actions/7")).willReturn(aResponse().withStatus(204)));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-2/attributes"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        HawkbitGateway gateway = gateway(config().withRetries(1));

        gateway.targets(null);
        gateway.attributes("dev-1");
        assertThatThrownBy(() -> gateway.attributes("dev-9")).isInstanceOf(TargetNotFoundException.class);
        assertThat(gateway.cancelAction("dev-1", 7)).isTrue();
        assertThatThrownBy(() -> gateway.attributes("dev-2")).isInstanceOf(HawkbitUnavailableException.class);

        assertThat(count("read", "GET", "targets", "2xx")).isEqualTo(2);
        assertThat(count("read", "GET", "targets", "4xx")).isEqualTo(1);
        assertThat(count("read", "GET", "targets", "io-error")).as("one attempt and its retry").isEqualTo(2);
        assertThat(count("write", "DELETE", "actions", "2xx")).isEqualTo(1);
        assertThat(registry.find(HawkbitClient.COUNTED).meters()).allSatisfy(m -> assertThat(m.getId().getTags())
                .noneMatch(t -> t.getValue().contains("dev-")));
        assertThat(registry.find(HawkbitClient.COUNTED).meters().stream().map(m -> m.getId().getTag("family"))
                .distinct().toList()).containsExactlyInAnyOrder("targets", "actions");
    }

    @Test
    void a429IsWaitedOutForItsRetryAfterThenSentAgainAndIsNoFailure() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("busy")
                .whenScenarioStateIs(STARTED).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2"))
                .willSetStateTo("free"));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("busy")
                .whenScenarioStateIs("free").willReturn(okJson("{\"a\":\"1\"}")));
        // no retry and a breaker that opens at the first failed call: the 429 uses neither
        HawkbitGateway gateway = gateway(config().withRetries(0).withBreaker(1, Duration.ofMinutes(1)));

        long start = System.nanoTime();
        assertThat(gateway.attributes("dev-1")).containsEntry("a", "1");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));

        hawkbit.verify(2, getRequestedFor(urlEqualTo("/rest/v1/targets/dev-1/attributes")));
        assertThat(count("read", "GET", "targets", "429")).isEqualTo(1);
        assertThat(count("read", "GET", "targets", "2xx")).isEqualTo(1);
        assertThat(gateway.rateLimited()).isEqualTo(Duration.ofSeconds(2));
        assertThat(registry.find(HawkbitClient.RATE_LIMITED).tag("kind", "read").counter()).extracting(Counter::count)
                .isEqualTo(2.0);
    }

    @Test
    void a429MakesEveryCallerOfItsKindWaitNotOnlyTheOneThatGotIt() throws Exception {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("busy")
                .whenScenarioStateIs(STARTED).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2"))
                .willSetStateTo("free"));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("busy")
                .whenScenarioStateIs("free").willReturn(okJson("{\"a\":\"1\"}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-2/attributes")).willReturn(okJson("{\"b\":\"2\"}")));
        hawkbit.stubFor(delete(urlEqualTo("/rest/v1/targets/dev-2/actions/3")).willReturn(aResponse().withStatus(204)));
        HawkbitGateway gateway = gateway();

        long start = System.nanoTime();
        CompletableFuture<?> refused = CompletableFuture.runAsync(() -> gateway.attributes("dev-1"));
        await429();
        long other = System.nanoTime();
        assertThat(gateway.cancelAction("dev-2", 3)).as("a write is not paused by a read's 429").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - other)).isLessThan(Duration.ofSeconds(1));
        assertThat(gateway.attributes("dev-2")).containsEntry("b", "2");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("another caller's read waits for the pause too")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        refused.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aBudgetIsNeverExceededAndCallersWaitRatherThanFail() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).willReturn(okJson("{\"a\":\"1\"}")));
        HawkbitGateway gateway = gateway(config().withBudget(4, 1));

        long start = System.nanoTime();
        for (int i = 0; i < 9; i++) {
            gateway.attributes("dev-1");
        }
        // 9 reads at 4 a second: the 9th starts 2 s after the first
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1990));
        assertThat(count("read", "GET", "targets", "2xx")).isEqualTo(9);
        assertThat(registry.find(HawkbitClient.WAITED).tag("kind", "read").counter()).isNotNull()
                .extracting(Counter::count).satisfies(s -> assertThat((Double) s).isGreaterThan(0.0));
    }

    private void await429() {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> count("read", "GET", "targets", "429") == 1);
    }

    private long count(String kind, String method, String family, String outcome) {
        return registry.find(HawkbitClient.COUNTED).tags("kind", kind, "method", method, "family", family,
                "outcome", outcome).meters().stream().map(Meter::measure)
                .mapToLong(m -> (long) m.iterator().next().getValue()).sum();
    }
}
