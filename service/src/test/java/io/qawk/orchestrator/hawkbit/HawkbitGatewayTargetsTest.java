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

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class HawkbitGatewayTargetsTest extends WireMockHawkbit {

    @Test
    void targetsArePagedThroughToTheEndWithLimitCappedAt500AndStableSort() {
        List<String> all = IntStream.range(0, 1234).mapToObj(i -> String.format("dev-%04d", i))
                .collect(Collectors.toList());
        for (int offset = 0; offset < all.size(); offset += 500) {
            hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets"))
                    .withQueryParam("offset", equalTo(String.valueOf(offset)))
                    .withQueryParam("limit", equalTo("500"))
                    .withQueryParam("sort", equalTo("controllerId:ASC"))
                    .withQueryParam("q", equalTo("updateStatus=in=(\"in_sync\")"))
                    .willReturn(okJson(targets(all.subList(offset, Math.min(all.size(), offset + 500)), 1234))));
        }
        HawkbitGateway gateway = gateway(config().withPageSize(1000));

        List<Integer> pageSizes = new ArrayList<>();
        gateway.forEachTargetPage(Fiql.eq("updateStatus", "in_sync"), page -> pageSizes.add(page.size()));
        List<HawkbitTarget> targets = gateway.targets(Fiql.eq("updateStatus", "in_sync"));

        assertThat(pageSizes).containsExactly(500, 500, 234);
        assertThat(targets).extracting(HawkbitTarget::controllerId).isEqualTo(all);
        assertThat(targets.get(0)).isEqualTo(new HawkbitTarget("dev-0000", "dev-0000", "in_sync",
                Instant.ofEpochMilli(1700000100000L), Instant.ofEpochMilli(1700000200000L),
                Instant.ofEpochMilli(1700000000000L)));
        hawkbit.verify(6, getRequestedFor(urlPathEqualTo("/rest/v1/targets")));
    }

    @Test
    void smallPageSizeIsUsedAndATargetSeenTwiceWhilePagingIsKeptOnce() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).withQueryParam("offset", equalTo("0"))
                .willReturn(okJson(targets(List.of("a", "b"), 3))));
        // "a0" was created meanwhile: offset 2 now shows b again
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).withQueryParam("offset", equalTo("2"))
                .willReturn(okJson(targets(List.of("b", "c"), 4))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).withQueryParam("offset", equalTo("4"))
                .willReturn(okJson(targets(List.of(), 4))));

        List<HawkbitTarget> targets = gateway(config().withPageSize(2)).targets(null);

        assertThat(targets).extracting(HawkbitTarget::controllerId).containsExactly("a", "b", "c");
        hawkbit.verify(getRequestedFor(urlPathEqualTo("/rest/v1/targets")).withQueryParam("limit", equalTo("2")));
    }

    @Test
    void targetWithoutPollOrInstallHasNullTimes() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(
                "{\"content\":[{\"controllerId\":\"new\",\"name\":\"new\",\"updateStatus\":\"unknown\","
                        + "\"createdAt\":1700000000000}],\"total\":1,\"size\":1}")));

        HawkbitTarget target = gateway().targets(null).get(0);

        assertThat(target.lastControllerRequestAt()).isNull();
        assertThat(target.installedAt()).isNull();
        assertThat(target.updateStatus()).isEqualTo("unknown");
    }

    @Test
    void hostileFiqlValueReachesHawkbitUnchanged() {
        String fiql = Fiql.and(Fiql.eq("attribute.device", "x\" ; name==*"), Fiql.eq("name", "back\\slash&q=1"));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).withQueryParam("q", equalTo(fiql))
                .willReturn(okJson(targets(List.of("x"), 1))));

        assertThat(gateway().targets(fiql)).hasSize(1);
        assertThat(fiql).isEqualTo("(attribute.device=in=(\"x\\\" ; name==*\"));(name==\"back\\\\slash&q=1\")");
    }

    @Test
    void attributesAreAFlatMapAnd204IsEmpty() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/attributes"))
                .willReturn(okJson("{\"device\":\"device-07\",\"hw\":\"rev2\",\"n\":3}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-2/attributes")).willReturn(aResponse().withStatus(204)));

        assertThat(gateway().attributes("dev-1")).containsExactly(Map.entry("device", "device-07"),
                Map.entry("hw", "rev2"), Map.entry("n", "3"));
        assertThat(gateway().attributes("dev-2")).isEmpty();
    }

    @Test
    void unknownTargetIsTargetNotFound() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/gone/attributes")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"errorCode\":\"hawkbit.server.error.repo.entitiyNotFound\","
                        + "\"message\":\"Target with given identifier {gone} does not exist.\"}")));

        assertThatThrownBy(() -> gateway().attributes("gone")).isInstanceOf(TargetNotFoundException.class)
                .hasMessageContaining("gone")
                .satisfies(e -> assertThat(((TargetNotFoundException) e).controllerId()).isEqualTo("gone"));
        assertThatThrownBy(() -> gateway().installedSet("gone")).isInstanceOf(TargetNotFoundException.class);
        assertThatThrownBy(() -> gateway().metadata("gone")).isInstanceOf(TargetNotFoundException.class);
    }

    @Test
    void targetThatVanishesBetweenListingAndReadingIsReportedAndTheRestIsRead() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(targets(List.of("a", "b", "c"), 3))));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/a/attributes")).willReturn(okJson("{\"device\":\"d1\"}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/b/attributes")).willReturn(aResponse().withStatus(404)));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/c/attributes")).willReturn(aResponse().withStatus(204)));
        HawkbitGateway gateway = gateway();

        Map<String, Map<String, String>> read = new LinkedHashMap<>();
        List<String> vanished = new ArrayList<>();
        for (HawkbitTarget target : gateway.targets(null)) {
            try {
                read.put(target.controllerId(), gateway.attributes(target.controllerId()));
            } catch (TargetNotFoundException e) {
                vanished.add(e.controllerId());
            }
        }

        assertThat(read).containsOnlyKeys("a", "c");
        assertThat(read.get("a")).containsEntry("device", "d1");
        assertThat(vanished).containsExactly("b");
    }

    @Test
    void metadataIsPagedThroughIntoAMap() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/metadata")).withQueryParam("offset", equalTo("0"))
                .willReturn(okJson(page(List.of("{\"key\":\"system\",\"value\":\"s-1\"}",
                        "{\"key\":\"role\",\"value\":\"gateway\"}"), 3))));
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets/dev-1/metadata")).withQueryParam("offset", equalTo("2"))
                .willReturn(okJson(page(List.of("{\"key\":\"slot\",\"value\":\"2\"}"), 3))));

        assertThat(gateway(config().withPageSize(2)).metadata("dev-1")).containsExactly(
                Map.entry("system", "s-1"), Map.entry("role", "gateway"), Map.entry("slot", "2"));
    }

    @Test
    void installedAndAssignedSetsWith204AsEmpty() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/installedDS"))
                .willReturn(okJson(set(7, "app", "1.0", true))));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev-1/assignedDS")).willReturn(aResponse().withStatus(204)));

        assertThat(gateway().installedSet("dev-1")).contains(new DistributionSetRef(7, "app", "1.0", true));
        assertThat(gateway().installedSet("dev-1").orElseThrow().label()).isEqualTo("app:1.0");
        assertThat(gateway().assignedSet("dev-1")).isEmpty();
    }

    @Test
    void controllerIdsWithOddCharactersAreOnePathSegment() {
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/dev%201%3Fq%3D1%23x%25%C3%BC/attributes"))
                .willReturn(okJson("{\"ok\":\"yes\"}")));
        hawkbit.stubFor(get(urlEqualTo("/rest/v1/targets/%2E%2E/attributes")).willReturn(okJson("{\"dots\":\"1\"}")));

        assertThat(gateway().attributes("dev 1?q=1#x%ü")).containsEntry("ok", "yes");
        assertThat(gateway().attributes("..")).containsEntry("dots", "1");
        assertThat(HawkbitGateway.segment("a/b")).isEqualTo("a%2Fb");
    }

    @Test
    void everyRequestCarriesBasicAuth() {
        hawkbit.stubFor(get(urlPathEqualTo("/rest/v1/targets")).willReturn(okJson(targets(List.of(), 0))));

        gateway().targets(null);

        String expected = "Basic " + Base64.getEncoder()
                .encodeToString((TestConfig.USER + ":" + TestConfig.PASSWORD).getBytes(StandardCharsets.UTF_8));
        hawkbit.verify(getRequestedFor(urlPathEqualTo("/rest/v1/targets")).withHeader("Authorization",
                equalTo(expected)));
    }
}
