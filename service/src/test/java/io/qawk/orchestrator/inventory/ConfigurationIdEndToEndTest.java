package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The configuration identity of a mix, against the real hawkBit: the census and the systems name each mix with the
 * same short id, equal for equal mixes, different for another, the same at every sync.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class ConfigurationIdEndToEndTest {

    /** The definition of docs/security.md, computed here on its own. */
    private static String expected(String... lines) throws Exception {
        StringBuilder text = new StringBuilder();
        for (String l : lines) {
            text.append(l).append('\n');
        }
        byte[] d = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(d).substring(0, 12);
    }

    @Test
    void equalMixesShareOneIdThatStaysTheSameAcrossSyncs() throws Exception {
        try (Lanes lanes = new Lanes("cid-").withSetsAndType()) {
            lanes.system("lane-01", "c01").system("lane-02", "c01").system("lane-03", "c01");
            lanes.discovered(3);
            lanes.preinstall("1");
            lanes.hawkbit.assign(lanes.set("app:2"), List.of(lanes.id("lane-03", "lane")));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.installedSetId(lanes.id("lane-03", "lane"))).isEqualTo(lanes.set("app:2")));
            Lanes.sync();

            JsonPath systems = systems(lanes);
            String id1 = systems.getString("content.find { it.system == 'lane-01' }.configurationId");
            assertThat(id1).matches("[0-9a-f]{12}");
            assertThat(systems.getString("content.find { it.system == 'lane-02' }.configurationId")).isEqualTo(id1);
            String id3 = systems.getString("content.find { it.system == 'lane-03' }.configurationId");
            assertThat(id3).isNotEqualTo(id1);
            assertThat(id3).isEqualTo(expected("display=cid-disp:1", "lane=cid-app:2", "terminal=cid-term:1"));
            assertThat(id1).isEqualTo(expected("display=cid-disp:1", "lane=cid-app:1", "terminal=cid-term:1"));

            JsonPath census = census(lanes);
            assertThat(census.getList("content.configurationId")).containsExactly(id1, id3);
            assertThat(Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems/lane-02").then()
                    .statusCode(200).extract().path("configurationId").toString()).isEqualTo(id1);

            Lanes.sync();
            Lanes.sync();
            assertThat(census(lanes).getList("content.configurationId")).containsExactly(id1, id3);
            assertThat(systems(lanes).getList("content.configurationId")).containsExactly(id1, id1, id3);
        }
    }

    private static JsonPath systems(Lanes lanes) {
        return Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/systems").then().statusCode(200)
                .extract().jsonPath();
    }

    private static JsonPath census(Lanes lanes) {
        return Api.viewer().get("/qawk/v1/systemtypes/" + lanes.typeId + "/versions").then().statusCode(200)
                .extract().jsonPath();
    }
}
