package io.qawk.orchestrator.hawkbit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class HawkbitGatewayActionsTest extends WireMockHawkbit {

    @Test
    void actionsArePagedNewestFirstWithTheSetIdFromTheLink() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/actions")).withQueryParam("offset", equalTo("0"))
                .withQueryParam("sort", equalTo("id:DESC")).withQueryParam("q", equalTo("status==\"pending\""))
                .willReturn(okJson(page(List.of(
                        "{\"id\":12,\"status\":\"running\",\"active\":true,\"detailStatus\":\"running\","
                                + "\"createdAt\":1700000000000,\"lastModifiedAt\":1700000001000,\"_links\":{"
                                + "\"self\":{\"href\":\"http://h/rest/v1/targets/dev-1/actions/12\"},"
                                + "\"distributionset\":{\"href\":\"http://h/rest/v1/distributionsets/42\","
                                + "\"name\":\"app:2.0\"}}}"), 2))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/actions")).withQueryParam("offset", equalTo("1"))
                .willReturn(okJson(page(List.of("{\"id\":7,\"status\":\"pending\",\"createdAt\":1600000000000}"),
                        2))));

        List<HawkbitAction> actions = gateway(config().withPageSize(1)).actions("dev-1", Fiql.eq("status", "pending"));

        assertThat(actions).containsExactly(
                new HawkbitAction(12, "running", true, "running", Instant.ofEpochMilli(1700000000000L),
                        Instant.ofEpochMilli(1700000001000L), 42L),
                new HawkbitAction(7, "pending", null, null, Instant.ofEpochMilli(1600000000000L), null, null));
    }

    @ParameterizedTest(name = "0.10+: active={0} status={1} -> {2}")
    @CsvSource({ "true,running,RUNNING", "true,canceling,RUNNING", "true,scheduled,RUNNING",
            "false,finished,SUCCEEDED", "false,downloaded,SUCCEEDED", "false,error,FAILED",
            "false,canceled,CANCELED", "false,warning,FAILED" })
    void outcomeOnCurrentHawkbitComesFromActiveAndStatus(boolean active, String status, ActionOutcome expected) {
        stubAction(5, "{\"id\":5,\"status\":\"" + status + "\",\"active\":" + active + ",\"detailStatus\":\""
                + status + "\",\"type\":\"forced\"}");

        assertThat(gateway().actionOutcome("dev-1", 5)).isEqualTo(expected);
        hawkbit.verify(0, getRequestedFor(urlPathEqualTo("/rest/v1/targets/dev-1/actions/5/status")));
    }

    @ParameterizedTest(name = "0.3.0M8..0.9: detailStatus={0} -> {1}")
    @CsvSource({ "finished,SUCCEEDED", "error,FAILED", "canceled,CANCELED" })
    void outcomeOnOldHawkbitWithDetailStatus(String detail, ActionOutcome expected) {
        stubAction(5, "{\"id\":5,\"status\":\"finished\",\"detailStatus\":\"" + detail + "\"}");

        assertThat(gateway().actionOutcome("dev-1", 5)).isEqualTo(expected);
        hawkbit.verify(0, getRequestedFor(urlPathEqualTo("/rest/v1/targets/dev-1/actions/5/status")));
    }

    @Test
    void pendingActionOnOldHawkbitIsRunning() {
        stubAction(5, "{\"id\":5,\"status\":\"pending\",\"type\":\"forced\"}");

        assertThat(gateway().actionOutcome("dev-1", 5)).isEqualTo(ActionOutcome.RUNNING);
    }

    @ParameterizedTest(name = "0.3.0M7 status history, newest {0} -> {1}")
    @CsvSource({ "finished,SUCCEEDED", "error,FAILED", "canceled,CANCELED" })
    void outcomeOn030M7ComesFromTheNewestStatusHistoryEntry(String newest, ActionOutcome expected) {
        stubAction(5, "{\"id\":5,\"status\":\"finished\",\"type\":\"forced\"}");
        // history out of order and over two pages: newest by reportedAt
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/actions/5/status"))
                .withQueryParam("offset", equalTo("0")).willReturn(okJson(page(List.of(
                        "{\"id\":20,\"type\":\"running\",\"messages\":[],\"reportedAt\":1700000001000}",
                        "{\"id\":22,\"type\":\"" + newest + "\",\"messages\":[\"x\"],\"reportedAt\":1700000009000}"),
                        3))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/actions/5/status"))
                .withQueryParam("offset", equalTo("2")).willReturn(okJson(page(List.of(
                        "{\"id\":21,\"type\":\"retrieved\",\"messages\":[],\"reportedAt\":1700000005000}"), 3))));

        assertThat(gateway(config().withPageSize(2)).actionOutcome("dev-1", 5)).isEqualTo(expected);
    }

    @Test
    void unknownTargetOrActionIsTargetNotFound() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/gone/actions/5")).willReturn(aResponse().withStatus(404)));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/gone/actions")).willReturn(aResponse().withStatus(404)));

        assertThatThrownBy(() -> gateway().actionOutcome("gone", 5)).isInstanceOf(TargetNotFoundException.class);
        assertThatThrownBy(() -> gateway().actions("gone", null)).isInstanceOf(TargetNotFoundException.class);
    }

    @Test
    void distributionSetById404IsEmpty() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/9")).willReturn(aResponse().withStatus(404)));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/8")).willReturn(okJson(set(8, "os", "1.2", true))));

        assertThat(gateway().distributionSet(9)).isEmpty();
        assertThat(gateway().distributionSet(8)).contains(new DistributionSetRef(8, "os", "1.2", true));
    }

    @Test
    void aKnownSetIsAskedForOnceAndAnAbsentOneEveryTime() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/9")).willReturn(aResponse().withStatus(404)));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/8")).willReturn(okJson(set(8, "os", "1.2", true))));
        HawkbitGateway gateway = gateway();

        for (int i = 0; i < 3; i++) {
            assertThat(gateway.knownDistributionSet(8)).contains(new DistributionSetRef(8, "os", "1.2", true));
            assertThat(gateway.knownDistributionSet(9)).isEmpty();
        }

        hawkbit.verify(1, getRequestedFor(urlEqualTo("/rest/v1/distributionsets/8")));
        hawkbit.verify(3, getRequestedFor(urlEqualTo("/rest/v1/distributionsets/9")));
    }

    @Test
    void distributionSetByNameAndVersionMatchesExactly() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/distributionsets"))
                .withQueryParam("q", equalTo("(name==\"app\");(version==\"2.0\")"))
                .willReturn(okJson(page(List.of(set(3, "APP", "2.0", true), set(4, "app", "2.0", true)), 2))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/distributionsets"))
                .withQueryParam("q", equalTo("(name==\"app\");(version==\"9\")")).willReturn(okJson(page(List.of(), 0))));

        assertThat(gateway().distributionSet("app", "2.0")).contains(new DistributionSetRef(4, "app", "2.0", true));
        assertThat(gateway().resolveArtifactName("app:2.0")).map(DistributionSetRef::id).contains(4L);
        assertThat(gateway().resolveArtifactName("app:9")).isEmpty();
    }

    @Test
    void aSetNamedWithoutVersionIsTheNewestOfThatName() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/distributionsets")).withQueryParam("q", equalTo("name==\"app\""))
                .withQueryParam("sort", equalTo("id:DESC"))
                .willReturn(okJson(page(List.of(set(12, "App", "3.0", true), set(11, "app", "2.1", true),
                        set(4, "app", "2.0", true)), 3))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/distributionsets"))
                .withQueryParam("q", equalTo("name=in=(\"my_app\")")).willReturn(okJson(page(List.of(), 0))));

        assertThat(gateway().resolveArtifactName("app")).map(DistributionSetRef::label).contains("app:2.1");
        assertThat(gateway().resolveArtifactName("app")).map(DistributionSetRef::id).contains(11L);
        assertThat(gateway().resolveArtifactName(" app: ")).map(DistributionSetRef::id).contains(11L);
        assertThat(gateway().resolveArtifactName("my_app")).isEmpty();
        assertThatThrownBy(() -> gateway().resolveArtifactName(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    private static void stubAction(long id, String json) {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/actions/" + id)).willReturn(okJson(json)));
    }
}
