package io.qawk.orchestrator.testkit.reliability;

import io.qawk.orchestrator.testkit.InventoryPass;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The service's REST API as the admin of a {@link ServiceProcess}; every call checks its status. */
public final class QawkApi {

    private final String baseUrl;

    public QawkApi(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    private RequestSpecification admin() {
        return RestAssured.given().baseUri(baseUrl).auth().preemptive().basic("admin", ServiceProcess.ADMIN_PASSWORD)
                .contentType(ContentType.JSON);
    }

    public JsonPath post(String path, String json, int status) {
        Response r = json == null ? admin().post(path) : admin().body(json).post(path);
        if (r.statusCode() != status) {
            throw new AssertionError("POST " + path + " answered " + r.statusCode() + " (expected " + status + "): "
                    + r.asString());
        }
        return r.jsonPath();
    }

    public JsonPath get(String path) {
        Response r = admin().get(path);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.asString());
        }
        return r.jsonPath();
    }

    /**
     * An inventory sync, until its pass has completed: a 200, or a 202 (the pass outlasted half the HTTP idle timeout
     * and goes on) and then {@code GET …/inventory} saying it completed.
     */
    public void sync() {
        InventoryPass.awaitCompleted(admin().post("/qawk/v1/inventory/sync"), () -> get("/qawk/v1/inventory"),
                Duration.ofMinutes(10));
    }

    public int systems(int typeId) {
        return get("/qawk/v1/systemtypes/" + typeId + "/systems?limit=500").getInt("total");
    }

    /** Creates and starts a deployment of the named systems; returns its id. */
    public int deploy(String name, int manifestId, List<String> systems, String extraJson) {
        String list = String.join(", ", systems.stream().map(s -> "\"" + s + "\"").toList());
        int id = post("/qawk/v1/systemdeployments", "{\"name\": \"" + name + "\", \"manifestId\": " + manifestId
                + ", \"systems\": [" + list + "]" + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}", 201).getInt("id");
        post("/qawk/v1/systemdeployments/" + id + "/start", null, 200);
        return id;
    }

    public JsonPath deployment(int id) {
        return get("/qawk/v1/systemdeployments/" + id);
    }

    public String state(int id) {
        return deployment(id).getString("state");
    }

    public List<Map<String, Object>> runs(int id) {
        return get("/qawk/v1/systemdeployments/" + id + "/runs").getList("");
    }

    public List<Map<String, Object>> events(int id, long runId) {
        return get("/qawk/v1/systemdeployments/" + id + "/runs/" + runId + "/events").getList("");
    }

    /** The devices of a run (all components), as the API shows them. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> devices(Map<String, Object> run) {
        Map<String, List<Map<String, Object>>> components = (Map<String, List<Map<String, Object>>>) run.get("components");
        return components == null ? List.of() : components.values().stream().flatMap(List::stream).toList();
    }

    public static long runId(Map<String, Object> run) {
        return ((Number) run.get("id")).longValue();
    }

    public String baseUrl() {
        return baseUrl;
    }
}
