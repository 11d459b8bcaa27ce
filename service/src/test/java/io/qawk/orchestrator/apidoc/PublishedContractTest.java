package io.qawk.orchestrator.apidoc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.Contract;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The document at {@code /q/openapi} is one an integrator can generate a client from (issue 45): OpenAPI 3.1, basic
 * auth declared, an operation id per operation named as a client method, the problem answers documented, 201 with its
 * Location; and {@link Contract}, which checks every answer the tests get through {@code Api}, does fail on an answer
 * that breaks it. The document is committed as {@code docs/openapi.yaml}, for integrators and for the client the tests
 * generate from it ({@code GeneratedClientTest}): it must be the one the service publishes.
 */
@QuarkusTest
class PublishedContractTest {

    private Contract.Document document() {
        return Contract.document(URI.create(RestAssured.baseURI + ":" + RestAssured.port));
    }

    private static List<JsonNode[]> operations(JsonNode root) {
        List<JsonNode[]> ops = new ArrayList<>();
        root.path("paths").fields().forEachRemaining(p -> p.getValue().fields().forEachRemaining(
                m -> ops.add(new JsonNode[] {p.getValue(), m.getValue()})));
        return ops;
    }

    @Test
    void everyOperationHasAClientMethodNameSecurityAndItsProblemAnswers() {
        JsonNode root = document().root();
        assertThat(root.path("openapi").asText()).startsWith("3.1");
        assertThat(root.at("/components/securitySchemes/basic/scheme").asText()).isEqualTo("basic");
        assertThat(root.at("/security/0").has("basic")).isTrue();
        assertThat(root.at("/servers/0/url").asText()).isEqualTo("/");
        assertThat(root.path("paths").has("/")).as("the screen's redirect is not part of the API").isFalse();

        Set<String> ids = new HashSet<>();
        List<JsonNode[]> ops = operations(root);
        assertThat(ops).hasSizeGreaterThan(40);
        for (JsonNode[] op : ops) {
            String id = op[1].path("operationId").asText();
            assertThat(id).matches("[a-z]+[A-Z][A-Za-z]*");
            assertThat(ids.add(id)).as("operationId %s once", id).isTrue();
            JsonNode responses = op[1].path("responses");
            assertThat(responses.has("401")).as(id + " documents 401").isTrue();
            assertThat(responses.at("/500/$ref").asText()).isEqualTo("#/components/responses/InternalError");
        }
        assertThat(ids).contains("startDeployment", "listSystems", "createSystemType", "createManifest",
                "createDeployment", "getDeployment", "listRuns", "listRunEvents");
        assertThat(root.at("/components/responses/NotFound/content/application~1problem+json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/Problem");

        JsonNode create = root.at("/paths/~1qawk~1v1~1systemdeployments/post");
        assertThat(create.at("/responses/201/headers/Location/required").asBoolean()).isTrue();
        assertThat(create.at("/responses/201/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/DeploymentView");
        assertThat(create.at("/requestBody/content/application~1json/example/manifestId").asInt()).isEqualTo(1);
        assertThat(root.at("/paths/~1qawk~1v1~1systemtypes~1{id}/delete/responses").has("204")).isTrue();
        assertThat(root.at("/paths/~1qawk~1v1~1systemdeployments~1{id}~1start/post/tags/0").asText())
                .as("tagged as the API's part, not the Java class: a generated client's DeploymentApi")
                .isEqualTo("Deployment");
    }

    static final String COMMITTED = "docs/openapi.yaml";

    /** What {@code /q/openapi} serves now, as YAML (read afresh: {@link Contract} keeps the first start's). */
    static String published() {
        return RestAssured.given().accept("application/yaml").get("/q/openapi").then().statusCode(200).extract()
                .asString();
    }

    @Test
    void theCommittedDocumentIsTheOnePublished() throws IOException {
        Path committed = Path.of(System.getProperty("qawk.project.dir", ".."), COMMITTED);
        String live = published();
        if (Boolean.getBoolean("qawk.openapi.refresh")) {
            Files.writeString(committed, live, StandardCharsets.UTF_8);
        }
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<String> differences = new ArrayList<>();
        differences("", yaml.readTree(committed.toFile()), yaml.readTree(live), differences);
        assertThat(differences).as("%s is not the document the service publishes (/q/openapi); where they differ:%n"
                        + "  %s%nIf the API changed on purpose, write the published one into it and commit it (the"
                        + " client GeneratedClientTest runs is generated from it):%n"
                        + "  ./mvnw -o -pl service -am verify -Dtest=PublishedContractTest -Dqawk.openapi.refresh=true"
                        + " -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=None"
                        + " -Dfailsafe.failIfNoSpecifiedTests=false -Dqawk.openapi-lint.skip=true",
                COMMITTED, String.join("\n  ", differences.subList(0, Math.min(20, differences.size()))))
                .isEmpty();
    }

    /** The JSON pointers where the two trees differ: a value changed, a member added or gone. */
    static void differences(String at, JsonNode committed, JsonNode live, List<String> out) {
        if (committed.isObject() && live.isObject()) {
            Set<String> names = new TreeSet<>();
            committed.fieldNames().forEachRemaining(names::add);
            live.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String pointer = at + "/" + name.replace("~", "~0").replace("/", "~1");
                if (!committed.has(name)) {
                    out.add(pointer + ": published, not committed");
                } else if (!live.has(name)) {
                    out.add(pointer + ": committed, no longer published");
                } else {
                    differences(pointer, committed.get(name), live.get(name), out);
                }
            }
        } else if (committed.isArray() && live.isArray() && committed.size() == live.size()) {
            for (int i = 0; i < committed.size(); i++) {
                differences(at + "/" + i, committed.get(i), live.get(i), out);
            }
        } else if (!committed.equals(live)) {
            out.add(at + ": committed " + abbreviated(committed) + ", published " + abbreviated(live));
        }
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }

    @Test
    void theCheckOfTheCommittedDocumentNamesWhereItDiffers() {
        ObjectMapper json = new ObjectMapper();
        List<String> out = new ArrayList<>();
        differences("", json.valueToTree(Map.of("paths", Map.of("/a/{id}", List.of(1, 2)),
                        "info", "x")),
                json.valueToTree(Map.of("paths", Map.of("/a/{id}", List.of(1, 3)),
                        "servers", "y")), out);
        assertThat(out).containsExactly("/info: committed, no longer published", "/paths/~1a~1{id}/1: committed 2,"
                + " published 3", "/servers: published, not committed");
    }

    @Test
    void withoutAProviderTheOnlyWayInDeclaredIsHttpBasic() throws IOException {
        JsonNode live = new ObjectMapper(new YAMLFactory()).readTree(published());
        assertThat(live.at("/components/securitySchemes").size()).isEqualTo(1);
        assertThat(live.at("/components/securitySchemes/basic/type").asText()).isEqualTo("http");
        assertThat(live.at("/components/securitySchemes/basic/scheme").asText()).isEqualTo("basic");
        assertThat(live.path("security").toString()).isEqualTo("[{\"basic\":[]}]");
    }

    @Test
    void fieldsJavaLetsBeNullAreNullableOpenApi31Style() {
        JsonNode view = document().root().at("/components/schemas/DeploymentView/properties");
        assertThat(view.at("/pausedBy/type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(view.at("/fleetId/type").toString()).isEqualTo("[\"integer\",\"null\"]");
        assertThat(view.at("/endedAt/anyOf/1/type").asText()).isEqualTo("null");
        assertThat(view.at("/id/type").asText()).as("a long is never null").isEqualTo("integer");
    }

    @Test
    void theCheckerFailsAnAnswerThatBreaksTheDocument() {
        Contract.Document doc = document();
        String type = "{\"id\": 1, \"name\": \"t\", \"systemKey\": \"attribute.device\", \"components\": []}";
        assertThat(doc.check("GET", "/qawk/v1/systemtypes/7", 200, "application/json", type)).isEmpty();
        assertThat(doc.check("GET", "/qawk/v1/systemtypes/7", 200, "application/json",
                "{\"id\": \"seven\", \"name\": \"t\"}")).anyMatch(v -> v.contains("id"));
        assertThat(doc.check("GET", "/qawk/v1/systemtypes/7", 418, "application/json", "{}"))
                .anyMatch(v -> v.contains("status 418 is not documented"));
        assertThat(doc.check("GET", "/qawk/v1/systemtypes/7", 404, "text/html", "<html/>"))
                .anyMatch(v -> v.contains("content type 'text/html'"));
        assertThat(doc.check("GET", "/qawk/v1/systemtypes/7", 404, "application/problem+json",
                "{\"title\": \"Not Found\", \"status\": \"404\"}")).anyMatch(v -> v.contains("status"));
    }

    @Test
    void answersThroughApiAreChecked() {
        int id = Api.admin().body("""
                {"name": "contract-type", "systemKey": "attribute.device",
                 "components": [{"componentType": "device1", "match": "attribute.device_type==device1"}]}
                """).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        Api.viewer().get("/qawk/v1/systemtypes/" + id).then().statusCode(200);
        Api.viewer().delete("/qawk/v1/systemtypes/" + id).then().statusCode(403);
        Api.admin().get("/qawk/v1/systemtypes/999999").then().statusCode(404);
        Api.anonymous().get("/qawk/v1/systemtypes").then().statusCode(401);
        Api.admin().delete("/qawk/v1/systemtypes/" + id).then().statusCode(204);
    }
}
