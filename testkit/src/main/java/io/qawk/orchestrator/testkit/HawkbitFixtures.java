package io.qawk.orchestrator.testkit;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.jboss.logging.Logger;

/**
 * Admin helper for tests and the demo: prepares hawkBit content through the Management API and reads target state.
 * Not the orchestrator's hawkBit client. All methods are blocking and throw
 * {@link IllegalStateException}/{@link RuntimeException} on unexpected answers.
 * <p>
 * Distribution sets are created with the default types of hawkBit 0.3.0M7: DS type {@code os} ("OS only", mandatory
 * software module type {@code os}) unless another DS type key is given; one software module
 * {@code <name>-<moduleTypeKey>} / {@code <version>} (vendor {@code qawk}) per mandatory module type of the DS type. No
 * artifact: hawkBit can assign and devices can "install" a set without one.
 */
public final class HawkbitFixtures {

    private static final Logger LOG = Logger.getLogger(HawkbitFixtures.class);
    public static final String DEFAULT_DS_TYPE = "os";

    private final MgmtHttp mgmt;

    public HawkbitFixtures(String baseUrl, String user, String password) {
        this.mgmt = new MgmtHttp(baseUrl, user, password,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                        .build());
    }

    public HawkbitFixtures(HawkbitServer server) {
        this(server.baseUrl(), server.user(), server.password());
    }

    /** The server as {@link HawkbitServer#COLLEAGUE} sees it: everything but approving rollouts. */
    public static HawkbitFixtures asColleague(HawkbitServer server) {
        return new HawkbitFixtures(server.baseUrl(), HawkbitServer.COLLEAGUE, server.password());
    }

    /** Sets a tenant configuration value ({@code PUT /rest/v1/system/configs/{key}}, e.g. rollout.approval.enabled). */
    public void tenantConfig(String key, Object value) {
        mgmt.put("/rest/v1/system/configs/" + key, Map.of("value", value)).requireOk("PUT tenant config " + key);
    }

    // ------------------------------------------------------------------------------------- distribution sets ----

    /** Creates (or finds, if it exists) a complete, assignable set of DS type {@value #DEFAULT_DS_TYPE}; its id. */
    public long createDistributionSet(String name, String version) {
        return createDistributionSet(name, version, DEFAULT_DS_TYPE);
    }

    /**
     * Creates (or finds, if one with this name and version exists) a complete, assignable distribution set of the given
     * DS type key ({@code os}, {@code os_app}, {@code app} on a fresh 0.3.0M7), with one software module per mandatory
     * module type of that DS type; returns the set's id.
     */
    public long createDistributionSet(String name, String version, String dsTypeKey) {
        Optional<Long> existing = findDistributionSet(name, version);
        if (existing.isPresent()) {
            return existing.get();
        }
        JsonNode dsType = findOne("/rest/v1/distributionsettypes?q=" + MgmtHttp.enc("key==" + quote(dsTypeKey)))
                .orElseThrow(() -> new IllegalArgumentException("no distribution set type with key " + dsTypeKey));
        long typeId = dsType.path("id").asLong();
        List<String> moduleTypes = new ArrayList<>();
        for (JsonNode t : mgmt.get("/rest/v1/distributionsettypes/" + typeId + "/mandatorymoduletypes")
                .requireOk("GET mandatory module types of DS type " + dsTypeKey).body()) {
            moduleTypes.add(t.path("key").asText());
        }
        if (moduleTypes.isEmpty()) { // a set needs at least one module: take an optional type
            JsonNode optional = mgmt.get("/rest/v1/distributionsettypes/" + typeId + "/optionalmoduletypes")
                    .requireOk("GET optional module types of DS type " + dsTypeKey).body();
            if (optional.size() == 0) {
                throw new IllegalStateException("DS type " + dsTypeKey + " has no module types");
            }
            moduleTypes.add(optional.get(0).path("key").asText());
        }
        List<Map<String, Long>> modules = new ArrayList<>();
        for (String typeKey : moduleTypes) {
            modules.add(Map.of("id", createSoftwareModule(name + "-" + typeKey, version, typeKey)));
        }
        Map<String, Object> ds = new LinkedHashMap<>();
        ds.put("name", name);
        ds.put("version", version);
        ds.put("type", dsTypeKey);
        ds.put("description", "created by qawk HawkbitFixtures");
        ds.put("requiredMigrationStep", false);
        ds.put("modules", modules);
        JsonNode created = mgmt.post("/rest/v1/distributionsets", List.of(ds))
                .requireOk("POST distribution set " + name + ":" + version).body().get(0);
        if (!created.path("complete").asBoolean(false)) {
            throw new IllegalStateException("distribution set " + name + ":" + version + " is not complete: " + created);
        }
        long id = created.path("id").asLong();
        LOG.debugf("created distribution set %s:%s (id %d, type %s, modules %s)", name, version, id, dsTypeKey,
                moduleTypes);
        return id;
    }

    /** Creates (or finds) a software module; its id. */
    public long createSoftwareModule(String name, String version, String typeKey) {
        Optional<JsonNode> found = findOne("/rest/v1/softwaremodules?q=" + MgmtHttp.enc(
                "name==" + quote(name) + ";version==" + quote(version) + ";type==" + quote(typeKey)));
        if (found.isPresent()) {
            return found.get().path("id").asLong();
        }
        return mgmt.post("/rest/v1/softwaremodules",
                List.of(Map.of("name", name, "version", version, "type", typeKey, "vendor", "qawk")))
                .requireOk("POST software module " + name + ":" + version).body().get(0).path("id").asLong();
    }

    public Optional<Long> findDistributionSet(String name, String version) {
        return findOne("/rest/v1/distributionsets?q="
                + MgmtHttp.enc("name==" + quote(name) + ";version==" + quote(version)))
                .map(n -> n.path("id").asLong());
    }

    public JsonNode distributionSet(long id) {
        return mgmt.get("/rest/v1/distributionsets/" + id).requireOk("GET distribution set " + id).body();
    }

    /** Deletes a set ({@code DELETE /rest/v1/distributionsets/{id}}); hawkBit only marks one in use as deleted. */
    public void deleteDistributionSet(long id) {
        mgmt.delete("/rest/v1/distributionsets/" + id).requireOk("DELETE distribution set " + id);
    }

    // ------------------------------------------------------------------------------------------ assignment -------

    /**
     * Bulk assignment {@code POST /rest/v1/distributionsets/{id}/assignedTargets}; {@code type} is
     * {@code forced|soft|timeforced|downloadonly}. Returns hawkBit's answer
     * ({@code assigned, alreadyAssigned, total, assignedActions[].id}); throws if hawkBit silently dropped targets
     * (unknown controller ids: assigned + alreadyAssigned != sent).
     */
    public JsonNode assign(long distributionSetId, Collection<String> controllerIds, String type) {
        List<Map<String, String>> body = new ArrayList<>();
        for (String id : controllerIds) {
            body.add(Map.of("id", id, "type", type));
        }
        JsonNode r = mgmt.post("/rest/v1/distributionsets/" + distributionSetId + "/assignedTargets", body)
                .requireOk("assign distribution set " + distributionSetId).body();
        int accounted = r.path("assigned").asInt() + r.path("alreadyAssigned").asInt();
        if (accounted != controllerIds.size()) {
            throw new IllegalStateException("hawkBit accounted for " + accounted + " of " + controllerIds.size()
                    + " targets (unknown targets are dropped silently): " + r);
        }
        return r;
    }

    /** {@link #assign(long, Collection, String)} with type {@code forced}. */
    public JsonNode assign(long distributionSetId, Collection<String> controllerIds) {
        return assign(distributionSetId, controllerIds, "forced");
    }

    /** Cancels an open action ({@code DELETE /rest/v1/targets/{id}/actions/{aid}}); the device must confirm. */
    public void cancelAction(String controllerId, long actionId) {
        mgmt.delete("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/actions/" + actionId)
                .requireOk("cancel action " + actionId + " of " + controllerId);
    }

    // --------------------------------------------------------------------------------------------- targets -------

    public JsonNode target(String controllerId) {
        return mgmt.get("/rest/v1/targets/" + MgmtHttp.enc(controllerId)).requireOk("GET target " + controllerId)
                .body();
    }

    /** {@code unknown|registered|pending|in_sync|error}. */
    public String updateStatus(String controllerId) {
        return target(controllerId).path("updateStatus").asText();
    }

    /** The installed set, empty when hawkBit answers 204. */
    public Optional<JsonNode> installedDs(String controllerId) {
        return optionalSet(controllerId, "installedDS");
    }

    /** The assigned set, empty when hawkBit answers 204 (also after a failed install on 0.3.0M7). */
    public Optional<JsonNode> assignedDs(String controllerId) {
        return optionalSet(controllerId, "assignedDS");
    }

    /** Id of the installed set, empty when none. */
    public Optional<Long> installedDsId(String controllerId) {
        return installedDs(controllerId).map(n -> n.path("id").asLong());
    }

    /** Attributes as the device reported them; empty when none (204). */
    public Map<String, String> attributes(String controllerId) {
        MgmtHttp.Response r = mgmt.get("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/attributes")
                .requireOk("GET attributes of " + controllerId);
        Map<String, String> out = new LinkedHashMap<>();
        r.body().fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** The target's actions, newest first (up to 500). */
    public List<JsonNode> actions(String controllerId) {
        return list("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/actions?limit=500&sort=id:DESC");
    }

    public JsonNode action(String controllerId, long actionId) {
        return mgmt.get("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/actions/" + actionId)
                .requireOk("GET action " + actionId).body();
    }

    /** The action's status history, newest first (entries {@code type}: running, retrieved, finished, error, …). */
    public List<JsonNode> actionStatus(String controllerId, long actionId) {
        return list("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/actions/" + actionId
                + "/status?limit=500&sort=id:DESC");
    }

    /** Controller ids of all targets matching a FIQL query (paged by 500). */
    public List<String> findTargetIds(String fiql) {
        List<String> ids = new ArrayList<>();
        int offset = 0;
        while (true) {
            JsonNode page = mgmt.get("/rest/v1/targets?limit=500&offset=" + offset + "&sort=id:ASC&q="
                    + MgmtHttp.enc(fiql)).requireOk("GET targets q=" + fiql).body();
            for (JsonNode t : page.path("content")) {
                ids.add(t.path("controllerId").asText());
            }
            int size = page.path("size").asInt(page.path("content").size());
            offset += size;
            if (size == 0 || offset >= page.path("total").asInt()) {
                return ids;
            }
        }
    }

    /** Raw Management API GET (path below the base URL, e.g. {@code /rest/v1/targets}); body, or missing on 204. */
    public JsonNode get(String path) {
        return mgmt.get(path).requireOk("GET " + path).body();
    }

    /** Raw Management API POST with a JSON body; the answer's body, or missing on 204. */
    public JsonNode post(String path, Object body) {
        return mgmt.post(path, body).requireOk("POST " + path).body();
    }

    /**
     * Creates a rollout in hawkBit, as a colleague would in its UI: {@code set} to the targets of {@code query} in
     * {@code groups} groups, each started when the one before it is 100 % done; returns its id. hawkBit creates its
     * groups within seconds ({@code creating} → {@code ready}).
     */
    public long createRollout(String name, long set, String query, int groups) {
        return post("/rest/v1/rollouts", Map.of("name", name, "distributionSetId", set, "targetFilterQuery", query,
                "amountGroups", groups,
                "successCondition", Map.of("condition", "THRESHOLD", "expression", "100"),
                "successAction", Map.of("action", "NEXTGROUP"),
                "errorCondition", Map.of("condition", "THRESHOLD", "expression", "100"),
                "errorAction", Map.of("action", "PAUSE"))).path("id").asLong();
    }

    /** The rollout as hawkBit shows it ({@code status}: creating, ready, running, paused, finished, …). */
    public JsonNode rollout(long id) {
        return get("/rest/v1/rollouts/" + id);
    }

    /** Starts a ready rollout. */
    public void startRollout(long id) {
        mgmt.post("/rest/v1/rollouts/" + id + "/start", Map.of()).requireOk("start rollout " + id);
    }

    /** Deletes a rollout (hawkBit cancels what it has not assigned yet). */
    public void deleteRollout(long id) {
        MgmtHttp.Response r = mgmt.delete("/rest/v1/rollouts/" + id);
        if (!r.ok() && r.status() != 404) {
            r.requireOk("delete rollout " + id);
        }
    }

    /** Creates a target filter; returns its id. */
    public long createTargetFilter(String name, String query) {
        return post("/rest/v1/targetfilters", Map.of("name", name, "query", query)).path("id").asLong();
    }

    /** Gives a target filter an auto-assigned set (hawkBit assigns it to every matching target within seconds). */
    public void autoAssign(long filterId, long set) {
        post("/rest/v1/targetfilters/" + filterId + "/autoAssignDS", Map.of("id", set, "type", "forced"));
    }

    /** The target filter as hawkBit shows it ({@code autoAssignDistributionSet}: the set's id, or null). */
    public JsonNode targetFilter(long id) {
        return get("/rest/v1/targetfilters/" + id);
    }

    /** Deletes a target filter. */
    public void deleteTargetFilter(long id) {
        MgmtHttp.Response r = mgmt.delete("/rest/v1/targetfilters/" + id);
        if (!r.ok() && r.status() != 404) {
            r.requireOk("delete target filter " + id);
        }
    }

    /** FIQL value quoting: {@code "..."} with {@code \} and {@code "} escaped. */
    public static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private Optional<JsonNode> optionalSet(String controllerId, String rel) {
        MgmtHttp.Response r = mgmt.get("/rest/v1/targets/" + MgmtHttp.enc(controllerId) + "/" + rel)
                .requireOk("GET " + rel + " of " + controllerId);
        return r.status() == 204 || r.body().isMissingNode() ? Optional.empty() : Optional.of(r.body());
    }

    private Optional<JsonNode> findOne(String path) {
        JsonNode content = mgmt.get(path).requireOk("GET " + path).body().path("content");
        return content.size() == 0 ? Optional.empty() : Optional.of(content.get(0));
    }

    private List<JsonNode> list(String path) {
        List<JsonNode> out = new ArrayList<>();
        mgmt.get(path).requireOk("GET " + path).body().path("content").forEach(out::add);
        return out;
    }
}
