package io.qawk.orchestrator.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.hostile.HostileProfile;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9, security: every operation of the API (as the OpenAPI document lists them) needs credentials, a viewer
 * may only read, and the users' passwords are configured as hashes.
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
class ApiAccessTest {

    static final Set<String> READS = Set.of("get", "head", "options");
    static final String[] TABLES = {"system_type", "system_type_component", "manifest", "manifest_component",
            "system_deployment", "system_run", "run_event", "fleet", "fleet_release", "inventory_sync_state"};

    @Inject
    DataSource dataSource;

    record Operation(String method, String path) {
    }

    private static List<Operation> operations() throws Exception {
        String doc = Api.admin().get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        JsonNode paths = new ObjectMapper().readTree(doc).path("paths");
        List<Operation> ops = new ArrayList<>();
        paths.fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(method -> {
            if (Set.of("get", "put", "post", "delete", "patch", "head", "options").contains(method)) {
                // path parameters: a number for ids, a word otherwise
                String path = p.getKey().replaceAll("\\{[^}]*[iI]d\\}", "1").replaceAll("\\{[^}]*\\}", "x");
                ops.add(new Operation(method, path));
            }
        }));
        return ops;
    }

    private static int status(RequestSpecification spec, Operation op) {
        return spec.body(op.method().equals("get") || op.method().equals("delete") ? "" : "{}")
                .request(op.method().toUpperCase(), op.path()).then().extract().statusCode();
    }

    @Test
    void everyApiOperationNeedsCredentialsAndAViewerCanChangeNothing() throws Exception {
        List<Operation> ops = operations();
        List<Operation> api = ops.stream().filter(o -> o.path().startsWith("/qawk/v1")).toList();
        assertThat(api).as("operations of /qawk/v1 in the OpenAPI document").hasSizeGreaterThan(30);
        assertThat(api.stream().filter(o -> !READS.contains(o.method()))).hasSizeGreaterThan(15);

        List<String> before = Tables.dump(dataSource, TABLES);
        List<String> wrong = new ArrayList<>();
        for (Operation op : api) {
            int anonymous = status(Api.anonymous(), op);
            if (anonymous != 401) {
                wrong.add(op + " anonymous: " + anonymous);
            }
            int badPassword = status(RestAssured.given().auth().preemptive().basic("admin", "not-the-password")
                    .contentType("application/json"), op);
            if (badPassword != 401) {
                wrong.add(op + " wrong password: " + badPassword);
            }
            // the hash itself is not a password
            String hash = ConfigProvider.getConfig().getValue("quarkus.security.users.embedded.users.admin", String.class);
            int hashAsPassword = status(RestAssured.given().auth().preemptive().basic("admin", hash)
                    .contentType("application/json"), op);
            if (hashAsPassword != 401) {
                wrong.add(op + " hash as password: " + hashAsPassword);
            }
            if (!READS.contains(op.method())) {
                int viewer = status(Api.viewer(), op);
                if (viewer != 403) {
                    wrong.add(op + " viewer: " + viewer);
                }
            } else {
                int viewer = status(Api.viewer(), op);
                if (viewer == 401 || viewer == 403) {
                    wrong.add(op + " viewer may read, got: " + viewer);
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(Tables.dump(dataSource, TABLES)).isEqualTo(before);
    }

    @Test
    void passwordsAreConfiguredAsSha512HashesAndTheTestUsersStillLogIn() throws Exception {
        var config = ConfigProvider.getConfig();
        assertThat(config.getValue("quarkus.security.users.embedded.plain-text", Boolean.class)).isFalse();
        assertThat(config.getValue("quarkus.security.users.embedded.algorithm", String.class))
                .isEqualToIgnoringCase("digest-sha-512");
        for (String[] user : List.of(new String[]{"admin", Api.ADMIN_PASSWORD}, new String[]{"viewer", Api.VIEWER_PASSWORD})) {
            String stored = config.getValue("quarkus.security.users.embedded.users." + user[0], String.class);
            assertThat(stored).matches("[0-9a-f]{128}").doesNotContain(user[1]);
            byte[] digest = MessageDigest.getInstance("SHA-512")
                    .digest((user[0] + ":Quarkus:" + user[1]).getBytes(StandardCharsets.UTF_8));
            assertThat(stored).isEqualTo(HexFormat.of().formatHex(digest));
        }
        Api.admin().get("/qawk/v1/systemtypes").then().statusCode(200);
        Api.viewer().get("/qawk/v1/systemtypes").then().statusCode(200);
    }
}
