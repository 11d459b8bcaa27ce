package io.qawk.orchestrator.channel.config;

import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;

/** Channels declared in configuration (the chart's values) are applied at start-up and then guarded by the API. */
@QuarkusTest
@TestProfile(ChannelsConfigProfile.class)
class ChannelsFromConfigurationTest {

    @Inject
    ChannelsFromConfiguration channels;

    @Inject
    ChannelsConfig config;

    private static Map<String, Object> channel(String name) {
        JsonPath all = Api.viewer().get("/qawk/v1/fleets").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> list = all.getList("findAll { it.name == '" + name + "' }");
        assertThat(list).as(name).hasSize(1);
        return list.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> channel, String key) {
        return (Map<String, Object>) channel.get(key);
    }

    private List<ChannelSpec> fromFile() throws Exception {
        String file = config.file().orElseThrow();
        return ChannelsValidation.parse(Files.readString(Path.of(file)), file);
    }

    @Test
    void theDeclaredChannelsExistAfterStartMarkedAsConfigurationWithTheirSettings() {
        Map<String, Object> dev = channel("cfg-dev");
        assertThat(dev).containsEntry("managedBy", "configuration").containsEntry("match", "attribute.channel==cfg-dev")
                .containsEntry("promotesToName", "cfg-beta").containsEntry("soakSeconds", 0);
        assertThat(section(dev, "orchestrator")).containsEntry("maxParallel", 4).containsEntry("maxFailed", 1)
                .containsEntry("byCentre", false);
        assertThat(section(dev, "devices")).containsEntry("maxFailed", 2).containsEntry("batchSize", 200);

        Map<String, Object> beta = channel("cfg-beta");
        assertThat(beta).containsEntry("promotesToName", "cfg-prod").containsEntry("soakSeconds", 86400);
        assertThat(section(beta, "orchestrator")).containsEntry("byCentre", true)
                .containsEntry("centres", List.of("c01", "c02"));

        Map<String, Object> prod = channel("cfg-prod");
        assertThat(prod).containsEntry("managedBy", "configuration").containsEntry("promotesTo", null);
        assertThat(section(prod, "orchestrator")).containsEntry("maxParallel", 10);
        assertThat(section(prod, "devices")).containsEntry("batchSize", 500);
    }

    @Test
    void theApiRefusesToChangeTheSettingsOfAConfiguredChannel() {
        int id = (int) channel("cfg-beta").get("id");
        Api.admin().body("{\"orchestrator\": {\"maxParallel\": 7}}").put("/qawk/v1/fleets/" + id).then()
                .statusCode(409).body("detail", containsString("managed by configuration"));
        assertThat(section(channel("cfg-beta"), "orchestrator")).containsEntry("maxParallel", 2);
    }

    @Test
    void applyingAgainUpdatesTakesOverAndHandsBackAndAnInvalidListChangesNothing() throws Exception {
        Api.admin().body("{\"name\": \"cfg-lab\", \"match\": \"attribute.channel==cfg-lab\"}").post("/qawk/v1/fleets")
                .then().statusCode(201);
        assertThat(channel("cfg-lab")).containsEntry("managedBy", "api");
        List<ChannelSpec> original = fromFile();
        try {
            List<ChannelSpec> changed = new ArrayList<>();
            for (ChannelSpec c : original) {
                if (c.name().equals("cfg-prod")) {
                    changed.add(new ChannelSpec(c.index(), c.name(), c.match(), null, 5, 2, false, List.of("c09"), 0, 50, 60, ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS, ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS));
                } else if (!c.name().equals("cfg-dev")) {
                    changed.add(c);
                }
            }
            changed.add(new ChannelSpec(3, "cfg-lab", "attribute.channel==cfg-lab", "cfg-beta", 3, 0, false, List.of(), 0, 500, 0, ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS, ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS));

            ChannelsFromConfiguration.Result r = channels.apply(changed, "test");

            assertThat(r.created()).isEmpty();
            assertThat(r.updated()).containsExactlyInAnyOrder("cfg-beta", "cfg-prod", "cfg-lab");
            assertThat(r.handedBack()).containsExactly("cfg-dev");
            assertThat(channel("cfg-dev")).containsEntry("managedBy", "api");
            assertThat(channel("cfg-lab")).containsEntry("managedBy", "configuration").containsEntry("promotesToName", "cfg-beta");
            Map<String, Object> prod = channel("cfg-prod");
            assertThat(prod).containsEntry("soakSeconds", 60);
            assertThat(section(prod, "orchestrator")).containsEntry("maxParallel", 5).containsEntry("centres", List.of("c09"));

            List<ChannelSpec> broken = new ArrayList<>(original);
            broken.set(2, new ChannelSpec(2, "cfg-prod", "attribute.channel==cfg-prod", "nowhere", 1, 0, false, List.of(), 0, 500, 0, ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS, ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS));
            assertThatThrownBy(() -> channels.apply(broken, "test"))
                    .isInstanceOf(InvalidChannelsException.class)
                    .hasMessageContaining("qawk fleets: channels[2].promotesTo names 'nowhere', which is neither declared nor an existing channel");
            assertThat(section(channel("cfg-prod"), "orchestrator")).as("nothing applied").containsEntry("maxParallel", 5);
        } finally {
            channels.apply(original, "test");
        }
        assertThat(channel("cfg-dev")).containsEntry("managedBy", "configuration");
        assertThat(channel("cfg-lab")).containsEntry("managedBy", "api");
        assertThat(section(channel("cfg-prod"), "orchestrator")).containsEntry("maxParallel", 10);
    }

    @Test
    void withRequireAuthTheMetricsNeedTheViewerRole() {
        Api.anonymous().get("/q/metrics").then().statusCode(401);
        Api.viewer().get("/q/metrics").then().statusCode(200).body(containsString("qawk_engine_last_pass_age_seconds"));
        Api.anonymous().get("/q/health/ready").then().statusCode(Matchers.not(401));
    }
}
