package io.qawk.orchestrator.hawkbit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.client.WireMock;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.github.tomakehurst.wiremock.http.Fault;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class HawkbitGatewayFaultsTest extends WireMockHawkbit {

    private static final String ENCODED_CREDENTIALS = Base64.getEncoder()
            .encodeToString((TestConfig.USER + ":" + TestConfig.PASSWORD).getBytes(StandardCharsets.UTF_8));

    @Test
    void serverErrorsAreRetriedUntilHawkbitAnswers() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("flaky")
                .whenScenarioStateIs(STARTED).willReturn(aResponse().withStatus(503)).willSetStateTo("second"));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("flaky")
                .whenScenarioStateIs("second").willReturn(aResponse().withStatus(502)).willSetStateTo("up"));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).inScenario("flaky")
                .whenScenarioStateIs("up").willReturn(okJson("{\"device\":\"d1\"}")));

        assertThat(gateway().attributes("dev-1")).containsEntry("device", "d1");

        hawkbit.verify(3, getRequestedFor(urlEqualTo("/rest/v1/targets/dev-1/attributes")));
        assertThat(timerCount("attributes", "server_error")).isEqualTo(2);
        assertThat(timerCount("attributes", "success")).isEqualTo(1);
    }

    @Test
    void serverErrorForeverIsUnavailableAfterBoundedRetries() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(500)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"database gone\"}")));

        long start = System.nanoTime();
        assertThatThrownBy(() -> gateway().targets(null)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("targets failed after 4 attempt(s)")
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining("database gone");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        hawkbit.verify(4, getRequestedFor(urlPathEqualTo("/rest/v1/targets")));
    }

    @Test
    void slowHawkbitIsUnavailableAfterReadTimeouts() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/installedDS"))
                .willReturn(okJson(set(1, "app", "1", true)).withFixedDelay(3000)));
        HawkbitGateway gateway = gateway(config().withReadTimeout(Duration.ofMillis(200)).withRetries(1));

        long start = System.nanoTime();
        assertThatThrownBy(() -> gateway.installedSet("dev-1")).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("no answer within 200 ms");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
        assertThat(timerCount("installed_set", "transport_error")).isEqualTo(2);
    }

    /**
     * A request under way is not silence: a new channel asks hawkBit for its members unless hawkBit hangs, and while
     * another pass waited for an answer it used to fall back to the last sync (which has none for a new channel).
     */
    @Test
    void aRequestUnderWayIsNoHangUntilHangAfter() throws Exception {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/installedDS"))
                .willReturn(okJson(set(1, "app", "1", true)).withFixedDelay(2500)));
        HawkbitGateway gateway = gateway(config().withReadTimeout(Duration.ofSeconds(5)).withHangAfter(Duration.ofMillis(1200)));
        var waiting = CompletableFuture.supplyAsync(() -> gateway.installedSet("dev-1"));
        Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> !hawkbit.findAll(getRequestedFor(urlEqualTo("/rest/v1/targets/dev-1/installedDS"))).isEmpty());
        assertThat(gateway.hangs()).as("a request sent a moment ago").isFalse();
        Awaitility.await().atMost(Duration.ofSeconds(2)).until(gateway::hangs);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isPresent();
        assertThat(gateway.hangs()).as("answered").isFalse();
    }

    @Test
    void connectionResetAndRefusedAreUnavailable() throws Exception {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets"))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertThatThrownBy(() -> gateway().targets(null)).isInstanceOf(HawkbitUnavailableException.class);

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        HawkbitGateway refused = gateway(TestConfig.forUrl("http://127.0.0.1:" + closedPort));
        assertThatThrownBy(() -> refused.attributes("dev-1")).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("ConnectException")
                .satisfies(e -> assertNoSecrets(e));
    }

    /**
     * A proxy before hawkBit, or hawkBit's own server, that ends a kept-alive connection right after an answer: the
     * client may pick that connection for its next request in the moment it closes. Vert.x then fails the request
     * with an {@code HttpClosedException}, a runtime exception the REST client passes on as it is; it reached an
     * operator as a 500 from {@code POST /inventory/sync} (a whole run, 2026-12-06). It is hawkBit going away, so it is
     * retried and then unavailable, like any other closed connection.
     */
    @Test
    void aConnectionClosedAfterEachAnswerIsUnavailableNeverAnUnexpectedFailure() throws Exception {
        try (OneAnswerPerConnection server = new OneAnswerPerConnection("{\"content\":[],\"total\":0,\"size\":0}")) {
            HawkbitGateway gateway = gateway(TestConfig.forUrl("http://127.0.0.1:" + server.port()).withRetries(0));
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            ExecutorService callers = Executors.newFixedThreadPool(4);
            List<Future<?>> calls = new ArrayList<>();
            try {
                for (int i = 0; i < 1000; i++) {
                    calls.add(callers.submit(() -> {
                        String outcome;
                        try {
                            gateway.targets(null);
                            outcome = "answered";
                        } catch (HawkbitUnavailableException e) {
                            outcome = "unavailable";
                        } catch (RuntimeException e) {
                            outcome = e.toString();
                        }
                        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                    }));
                }
                for (Future<?> call : calls) {
                    call.get(1, TimeUnit.MINUTES);
                }
            } finally {
                callers.shutdownNow();
            }

            assertThat(outcomes.keySet()).as("outcomes of 1,000 requests: %s", outcomes)
                    .contains("answered").isSubsetOf("answered", "unavailable");
        }
    }

    @Test
    void malformedJsonIsHawkbitMisbehavingNotBadInput() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson("{\"content\":[{\"contr")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).willReturn(okJson("[1,2]")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/installedDS")).willReturn(okJson("{\"foo\":1}")));

        assertThatThrownBy(() -> gateway().targets(null)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageStartingWith("hawkBit answered malformed JSON to targets");
        assertThatThrownBy(() -> gateway().attributes("dev-1")).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageStartingWith("hawkBit answered malformed attributes");
        assertThatThrownBy(() -> gateway().installedSet("dev-1")).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageStartingWith("hawkBit answered malformed installed_set");
    }

    @Test
    void otherClientErrorsAreRequestErrorsWithHawkbitsMessageButNoSecrets() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"errorCode\":\"hawkbit.server.error.rest.param.rsqlInvalidField\","
                        + "\"message\":\"The given search parameter field {colour} does not exist; request had "
                        + "Authorization: Basic " + ENCODED_CREDENTIALS + " and password " + TestConfig.PASSWORD
                        + "\"}")));

        assertThatThrownBy(() -> gateway().targets("colour==\"red\"")).isInstanceOf(HawkbitRequestException.class)
                .hasMessageContaining("HTTP 400")
                .hasMessageContaining("{colour} does not exist")
                .satisfies(e -> assertThat(((HawkbitRequestException) e).status()).isEqualTo(400))
                .satisfies(e -> assertNoSecrets(e));
        hawkbit.verify(1, getRequestedFor(urlPathEqualTo("/rest/v1/targets"))); // not retried
        assertThat(timerCount("targets", "client_error")).isEqualTo(1);
    }

    @Test
    void unauthorizedIsARequestErrorWithoutSecrets() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(401)));

        assertThatThrownBy(() -> gateway().targets(null)).isInstanceOf(HawkbitRequestException.class)
                .hasMessageContaining("401").satisfies(e -> assertNoSecrets(e));
    }

    @Test
    void circuitBreakerOpensFailsFastAndClosesAfterATrialCall() throws Exception {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(503)));
        HawkbitGateway gateway = gateway(config().withRetries(0).withBreaker(2, Duration.ofMillis(300)));

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> gateway.targets(null)).isInstanceOf(HawkbitUnavailableException.class);
        }
        assertThatThrownBy(() -> gateway.targets(null)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("circuit breaker open");
        hawkbit.verify(2, getRequestedFor(urlPathEqualTo("/rest/v1/targets")));

        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(targets(List.of("a"), 1))));
        Thread.sleep(350);
        assertThat(gateway.targets(null)).hasSize(1);
        assertThat(gateway.targets(null)).hasSize(1);
    }

    @Test
    void notConfiguredIsUnavailableAndPingIsFalse() {
        HawkbitGateway gateway = gateway(TestConfig.forUrl(null));

        assertThat(gateway.isConfigured()).isFalse();
        assertThat(gateway.ping()).isFalse();
        assertThatThrownBy(() -> gateway.targets(null)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("not configured");
        assertThatThrownBy(() -> gateway(TestConfig.forUrl("not a url")).attributes("x"))
                .isInstanceOf(HawkbitUnavailableException.class);
        HawkbitGateway noCredentials = gateway(config().withoutCredentials());
        assertThat(noCredentials.ping()).isFalse();
        assertThatThrownBy(() -> noCredentials.targets(null)).isInstanceOf(HawkbitUnavailableException.class)
                .hasMessageContaining("without credentials");
    }

    @Test
    void pingIsOneCheapCallAndNeverThrows() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(targets(List.of("a"), 9))));
        assertThat(gateway().ping()).isTrue();
        hawkbit.verify(getRequestedFor(urlEqualTo("/rest/v1/targets?offset=0&limit=1"))
                .withHeader("Authorization", WireMock.equalTo(
                        "Basic " + ENCODED_CREDENTIALS)));

        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(503)));
        assertThat(gateway().ping()).isFalse();
        hawkbit.verify(2, getRequestedFor(urlPathEqualTo("/rest/v1/targets"))); // no retries

        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets"))
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));
        assertThat(gateway().ping()).isFalse();
        assertThat(timerCount("ping", "success")).isEqualTo(1);
        assertThat(timerCount("ping", "server_error")).isEqualTo(1);
        assertThat(timerCount("ping", "transport_error")).isEqualTo(1);
    }

    @Test
    void requestTimerHasThePrometheusNameAndLowCardinalityTags() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes")).willReturn(okJson("{}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-2/attributes")).willReturn(okJson("{}")));
        HawkbitGateway gateway = track(new HawkbitGateway(config(), prometheus));

        gateway.attributes("dev-1");
        gateway.attributes("dev-2");

        assertThat(prometheus.scrape()).contains(
                "qawk_hawkbit_requests_seconds_count{operation=\"attributes\",outcome=\"success\",} 2.0");
    }

    private long timerCount(String operation, String outcome) {
        return Optional.ofNullable(registry.find(HawkbitGateway.METRIC).tag("operation", operation)
                .tag("outcome", outcome).timer()).map(t -> t.count()).orElse(0L);
    }

    private static void assertNoSecrets(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain(TestConfig.PASSWORD)
                    .doesNotContain(ENCODED_CREDENTIALS);
        }
        assertThat(e.toString()).doesNotContain(TestConfig.PASSWORD);
    }

    /** An HTTP server on 127.0.0.1 that answers one request per connection with {@code body}, then closes it. */
    private static final class OneAnswerPerConnection implements AutoCloseable {
        private final ServerSocket server;
        private final ExecutorService connections = Executors.newCachedThreadPool();

        OneAnswerPerConnection(String body) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            byte[] answer = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
            connections.submit(() -> {
                while (!server.isClosed()) {
                    Socket socket;
                    try {
                        socket = server.accept();
                    } catch (IOException e) {
                        return;
                    }
                    connections.submit(() -> answerOnce(socket, answer));
                }
            });
        }

        private static void answerOnce(Socket socket, byte[] answer) {
            try (socket) {
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                    // the request's line and headers; a GET has no body
                }
                OutputStream out = socket.getOutputStream();
                out.write(answer);
                out.flush();
            } catch (IOException e) {
                // the client went away first
            }
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
            connections.shutdownNow();
        }
    }
}
