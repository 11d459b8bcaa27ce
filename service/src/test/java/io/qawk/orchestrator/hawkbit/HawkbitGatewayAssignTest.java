package io.qawk.orchestrator.hawkbit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.hawkbit.HawkbitConfig.AssignmentType;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class HawkbitGatewayAssignTest extends WireMockHawkbit {

    private static final String ASSIGN_URL = "/rest/v1/distributionsets/42/assignedTargets";

    @BeforeEach
    void completeSet() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/42")).willReturn(okJson(set(42, "app", "2.0", true))));
    }

    @Test
    void assignmentIsSplitIntoBatchesWithTheConfiguredTypeAndSummed() {
        stubAssign(List.of("t1", "t2", "t3"), "soft", 3, 0, List.of(101L, 102L, 103L));
        stubAssign(List.of("t4", "t5", "t6"), "soft", 2, 1, List.of(104L, 105L));
        stubAssign(List.of("t7"), "soft", 1, 0, List.of(107L));
        HawkbitGateway gateway = gateway(config().withAssign(AssignmentType.SOFT, 3));

        AssignmentResult result = gateway.assign(42, List.of("t1", "t2", "t3", "t4", "t2", "t5", "t6", "t7"));

        assertThat(result).isEqualTo(new AssignmentResult(6, 1, 7, List.of(101L, 102L, 103L, 104L, 105L, 107L)));
        hawkbit.verify(3, postRequestedFor(urlEqualTo(ASSIGN_URL)));
    }

    @Test
    void defaultTypeIsForcedAndOneCallUpToTheBatchSize() {
        List<String> ids = IntStream.range(0, 1200).mapToObj(i -> "dev-" + i)
                .collect(Collectors.toList());
        stubAssign(ids, "forced", 1200, 0, List.of());

        assertThat(gateway().assign(42, ids).assigned()).isEqualTo(1200);
        hawkbit.verify(1, postRequestedFor(urlEqualTo(ASSIGN_URL)));
    }

    @Test
    void downloadOnlyTypeIsSentAsHawkbitSpellsIt() {
        stubAssign(List.of("a"), "downloadonly", 1, 0, List.of(5L));

        assertThat(gateway(config().withAssign(AssignmentType.DOWNLOADONLY, 10)).assign(42, List.of("a"))
                .actionIds()).containsExactly(5L);
    }

    @Test
    void silentlyDroppedUnknownTargetsAreDetectedAndNamed() {
        stubAssign(List.of("a", "ghost-1", "b", "ghost-2"), "forced", 1, 1, List.of(9L));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets"))
                .withQueryParam("q", equalTo("controllerId=in=(\"a\",\"ghost-1\",\"b\",\"ghost-2\")"))
                .willReturn(okJson(targets(List.of("a", "b"), 2))));

        assertThatThrownBy(() -> gateway().assign(42, List.of("a", "ghost-1", "b", "ghost-2")))
                .isInstanceOfSatisfying(AssignmentIncompleteException.class, e -> {
                    assertThat(e.dropped()).isEqualTo(2);
                    assertThat(e.sent()).isEqualTo(4);
                    assertThat(e.unknownTargets()).containsExactly("ghost-1", "ghost-2");
                    assertThat(e.result()).isEqualTo(new AssignmentResult(1, 1, 2, List.of(9L)));
                    assertThat(e.getMessage()).contains("2 of 4", "2 dropped", "app:2.0", "ghost-1, ghost-2");
                });
    }

    @Test
    void droppedTargetsAreStillCountedWhenTheExistenceCheckFails() {
        stubAssign(List.of("a", "b"), "forced", 1, 0, List.of(9L));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(aResponse().withStatus(503)));

        assertThatThrownBy(() -> gateway().assign(42, List.of("a", "b")))
                .isInstanceOfSatisfying(AssignmentIncompleteException.class, e -> {
                    assertThat(e.dropped()).isEqualTo(1);
                    assertThat(e.unknownTargets()).isEmpty();
                });
    }

    @Test
    void transientFailureOfAnAssignCallIsRetried() {
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).inScenario("assign").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(502)).willSetStateTo("up"));
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).inScenario("assign").whenScenarioStateIs("up")
                .willReturn(okJson("{\"assigned\":0,\"alreadyAssigned\":2,\"total\":2,\"assignedActions\":[]}")));

        assertThat(gateway().assign(42, List.of("a", "b"))).isEqualTo(new AssignmentResult(0, 2, 2, List.of()));
        hawkbit.verify(2, postRequestedFor(urlEqualTo(ASSIGN_URL)));
    }

    @Test
    void incompleteOrMissingSetIsRefusedBeforeAssigning() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/43")).willReturn(okJson(set(43, "app", "3.0", false))));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/44")).willReturn(aResponse().withStatus(404)));

        assertThatThrownBy(() -> gateway().assign(43, List.of("a"))).isInstanceOfSatisfying(
                HawkbitRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("app:3.0", "incomplete");
                });
        assertThatThrownBy(() -> gateway().assign(44, List.of("a"))).isInstanceOfSatisfying(
                HawkbitRequestException.class, e -> assertThat(e.status()).isEqualTo(404));
        assertThat(gateway().assign(44, List.of())).isEqualTo(new AssignmentResult(0, 0, 0, List.of()));
        hawkbit.verify(0, postRequestedFor(urlPathEqualTo("/rest/v1/distributionsets/43/assignedTargets")));
    }

    /**
     * A set read by id (a manifest's check, an earlier pass) is not read again for each assignment within the minute
     * it is remembered; one remembered as incomplete is read again, since it may have been completed since.
     */
    @Test
    void aRememberedCompleteSetIsAssignedWithoutReadingItAgainAnIncompleteOneIsReadAgain() {
        stubAssign(List.of("a"), "forced", 1, 0, List.of(1L));
        stubAssign(List.of("b"), "forced", 1, 0, List.of(2L));
        HawkbitGateway gateway = gateway();
        assertThat(gateway.distributionSet(42)).isPresent();
        gateway.assign(42, List.of("a"));
        gateway.assign(42, List.of("b"));
        hawkbit.verify(1, getRequestedFor(urlEqualTo("/rest/v1/distributionsets/42")));
        hawkbit.verify(2, postRequestedFor(urlEqualTo(ASSIGN_URL)));

        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/43")).inScenario("completed").whenScenarioStateIs(STARTED)
                .willReturn(okJson(set(43, "app", "3.0", false))).willSetStateTo("complete"));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/43")).inScenario("completed").whenScenarioStateIs("complete")
                .willReturn(okJson(set(43, "app", "3.0", true))));
        hawkbit.stubFor(post(urlEqualTo("/rest/v1/distributionsets/43/assignedTargets"))
                .willReturn(okJson("{\"assigned\":1,\"alreadyAssigned\":0,\"total\":1,\"assignedActions\":[{\"id\":3}]}")));
        assertThat(gateway.distributionSet(43)).hasValueSatisfying(set -> assertThat(set.complete()).isFalse());
        assertThat(gateway.assign(43, List.of("a")).assigned()).isEqualTo(1);
        hawkbit.verify(2, getRequestedFor(urlEqualTo("/rest/v1/distributionsets/43")));
    }

    private static final String CD = "[{\"id\":\"c\",\"type\":\"forced\"},{\"id\":\"d\",\"type\":\"forced\"}]";

    @Test
    void aBatchHawkbitRefusesIsNamedWithHawkbitsReasonAndTheOtherBatchesAreStillSent() {
        stubAssign(List.of("a", "b"), "forced", 2, 0, List.of(11L, 12L));
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).withRequestBody(equalToJson(CD))
                .willReturn(aResponse().withStatus(403).withHeader("Content-Type", "application/json")
                        .withBody("{\"errorCode\":\"hawkbit.server.error.quota.tooManyEntries\","
                                + "\"message\":\"Quota exceeded: too many actions for target c\"}")));
        stubAssign(List.of("e"), "forced", 1, 0, List.of(15L));

        assertThatThrownBy(() -> gateway(config().withAssign(AssignmentType.FORCED, 2)).assign(42,
                List.of("a", "b", "c", "d", "e"))).isInstanceOfSatisfying(AssignmentRefusedException.class, e -> {
                    assertThat(e.setLabel()).isEqualTo("app:2.0");
                    assertThat(e.refusals()).containsExactly(new AssignmentRefusedException.Refusal(List.of("c", "d"),
                            403, "403 Quota exceeded: too many actions for target c"));
                    assertThat(e.result().actionIds()).containsExactly(11L, 12L, 15L);
                });
        hawkbit.verify(1, postRequestedFor(urlEqualTo(ASSIGN_URL)).withRequestBody(equalToJson(CD)));
    }

    @Test
    void aMissingSetIsARefusalOfEveryTarget() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/distributionsets/44")).willReturn(aResponse().withStatus(404)));

        assertThatThrownBy(() -> gateway().assign(44, List.of("a", "b"))).isInstanceOfSatisfying(
                AssignmentRefusedException.class, e -> assertThat(e.refusals()).containsExactly(
                        new AssignmentRefusedException.Refusal(List.of("a", "b"), 404, "404 distribution set not found")));
    }

    @Test
    void hawkbitAwayOrQawkNotLetInIsNoRefusal() {
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).willReturn(aResponse().withStatus(503)));
        assertThatThrownBy(() -> gateway().assign(42, List.of("a"))).isInstanceOf(HawkbitUnavailableException.class);

        hawkbit.resetAll();
        completeSet();
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).willReturn(aResponse().withStatus(401)));
        assertThatThrownBy(() -> gateway().assign(42, List.of("a")))
                .isInstanceOfSatisfying(HawkbitRequestException.class, e -> {
                    assertThat(e).isNotInstanceOf(AssignmentRefusedException.class);
                    assertThat(e.answer()).isEqualTo(HawkbitAnswer.NOT_ALLOWED);
                });
    }

    private static void stubAssign(List<String> ids, String type, int assigned, int already, List<Long> actions) {
        String body = ids.stream().map(id -> "{\"id\":\"" + id + "\",\"type\":\"" + type + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        String answer = "{\"assigned\":" + assigned + ",\"alreadyAssigned\":" + already + ",\"total\":"
                + (assigned + already) + ",\"assignedActions\":"
                + actions.stream().map(a -> "{\"id\":" + a + "}").collect(Collectors.joining(",", "[", "]")) + "}";
        hawkbit.stubFor(post(urlEqualTo(ASSIGN_URL)).withRequestBody(equalToJson(body)).willReturn(okJson(answer)));
    }
}
