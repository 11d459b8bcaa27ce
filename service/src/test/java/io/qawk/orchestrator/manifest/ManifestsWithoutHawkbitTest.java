package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/** hawkBit cannot be reached: a manifest (JSON or YAML) cannot be checked, so it is refused with 503 and nothing is stored. */
@QuarkusTest
@TestProfile(ManifestsWithoutHawkbitTest.HawkbitDown.class)
class ManifestsWithoutHawkbitTest {

    public static class HawkbitDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("qawk.hawkbit.url", "http://127.0.0.1:9", "qawk.hawkbit.user", "nobody",
                    "qawk.hawkbit.password", "nothing", "qawk.hawkbit.max-retries", "0",
                    "qawk.hawkbit.connect-timeout", "1s");
        }
    }

    @Inject
    DataSource dataSource;

    @Test
    void aManifestIsRefusedWith503AndNothingIsStored() {
        long type = ManifestApiTest.createType("down-lane", "device1");
        List<String> before = Tables.dump(dataSource, "manifest", "manifest_component");

        Api.admin().body("""
                {"name": "down", "systemTypeId": %d, "components": [
                  {"componentType": "device1", "distributionSetId": 1, "order": 1}]}
                """.formatted(type)).post("/qawk/v1/manifests")
                .then().statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("hawkBit cannot be reached"));

        Api.admin().config(io.restassured.RestAssured.config().encoderConfig(io.restassured.config.EncoderConfig
                        .encoderConfig().encodeContentTypeAs("application/yaml", io.restassured.http.ContentType.TEXT)))
                .contentType("application/yaml").body("""
                        api_version: mender/v1
                        kind: manifest
                        name: down
                        system_types_compatible: [down-lane]
                        component_types:
                          device1: { artifact_name: app }
                        """).post("/qawk/v1/manifests/import")
                .then().statusCode(503).contentType("application/problem+json");

        assertThat(Tables.dump(dataSource, "manifest", "manifest_component")).isEqualTo(before);
        // and the sets cannot be listed for the manifest form: said so, not an empty list
        Api.viewer().get("/qawk/v1/distributionsets").then().statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("hawkBit cannot be reached"));
    }
}
