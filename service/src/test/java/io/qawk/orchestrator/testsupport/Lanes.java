package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lanes of the product description in a real hawkBit: per system a lane computer (order 2) and two terminals and a
 * score display (order 1). Everything carries a prefix, so fleets of different tests never see each other.
 */
public final class Lanes implements AutoCloseable {

    public final String prefix;
    public final DeviceSimulator devices;
    public final HawkbitFixtures hawkbit;
    public final Map<String, Long> sets = new LinkedHashMap<>();
    private final List<String> all = new ArrayList<>();
    public int typeId;
    private Supplier<RequestSpecification> admin = Api::admin;
    private Supplier<RequestSpecification> viewer = Api::viewer;

    public Lanes(String prefix) {
        this.prefix = prefix;
        this.devices = new DeviceSimulator(SharedHawkbit.get());
        this.hawkbit = new HawkbitFixtures(SharedHawkbit.get());
    }

    /** Lanes in another hawkBit than the shared one (its base URL, Management API user and password). */
    public Lanes(String prefix, String hawkbitUrl, String user, String password) {
        this.prefix = prefix;
        this.devices = new DeviceSimulator(hawkbitUrl, user, password, "DEFAULT");
        this.hawkbit = new HawkbitFixtures(hawkbitUrl, user, password);
    }

    /** Sets up the fleet through the API as someone else than the basic-auth test users (e.g. with a token). */
    public Lanes as(Supplier<RequestSpecification> who) {
        this.admin = who;
        this.viewer = who;
        return this;
    }

    /** Creates the sets {@code <prefix>app}, {@code -term}, {@code -disp} in versions 1 and 2, and the system type. */
    public Lanes withSetsAndType() {
        return withSetsAndType(Map.of());
    }

    /** The same, with health queries for some components ({@code lane}, {@code terminal}, {@code display}). */
    public Lanes withSetsAndType(Map<String, String> health) {
        for (String name : List.of("app", "term", "disp")) {
            for (String version : List.of("1", "2")) {
                sets.put(name + ":" + version, hawkbit.createDistributionSet(prefix + name, version));
            }
        }
        typeId = admin.get().body("""
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane"%2$s},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal"%3$s},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"%4$s}]}
                """.formatted(prefix, query("health", health.get("lane")), query("health", health.get("terminal")),
                        query("health", health.get("display"))))
                .post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        return this;
    }

    /**
     * The guard's lanes: the type again with the rule "terminal firmware 2 needs app 2" ({@code why}) and this guard
     * ({@code watch} or {@code hold}).
     */
    public void firmwareNeedsApp(String why, String guard) {
        retype("""
                "rules": [{"if": {"terminal": "%1$sterm:[2,)"}, "then": {"lane": "%1$sapp:[2,)"}, "why": "%2$s"}],
                "guard": "%3$s\"""".formatted(prefix, why, guard))
                .body("guard", Matchers.equalTo(guard));
    }

    /** The type again with the rule "app 2 needs terminal firmware 2" ({@code why}). */
    public ValidatableResponse appNeedsTerminal(String why) {
        return retype("""
                "rules": [{"if": {"lane": "%1$sapp:[2,)"}, "then": {"terminal": "%1$sterm:[2,)"}, "why": "%2$s"}]"""
                .formatted(prefix, why));
    }

    /** The type again, its components as {@link #withSetsAndType()} made them, with more fields ({@code fields}: JSON). */
    public ValidatableResponse retype(String fields) {
        return admin.get().body("""
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane"},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}],
                 %2$s}
                """.formatted(prefix, fields)).put("/qawk/v1/systemtypes/" + typeId).then().statusCode(200);
    }

    private static String query(String field, String query) {
        return query == null ? "" : ", \"" + field + "\": \"" + query.replace("\"", "\\\"") + "\"";
    }

    public long set(String key) {
        return sets.get(key);
    }

    /** A manifest: terminals and display at order 1, the lane computer at order 2, on the given versions. */
    public int manifest(String name, String version) {
        return manifest(name, version, Map.of());
    }

    /** The same, with verification queries for some components ({@code lane}, {@code terminal}, {@code display}). */
    public int manifest(String name, String version, Map<String, String> verify) {
        return admin.get().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1%s},
                  {"componentType": "display", "distributionSetId": %d, "order": 1%s},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2%s}]}
                """.formatted(prefix + name, typeId, set("term:" + version), query("verify", verify.get("terminal")),
                        set("disp:" + version), query("verify", verify.get("display")), set("app:" + version),
                        query("verify", verify.get("lane"))))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** Adds a lane system of four devices in a centre; ids are {@code <prefix><system>-lane|-term-a|-term-b|-display}. */
    public Lanes system(String system, String centre) {
        return system(system, centre, null);
    }

    /** A lane system whose devices report {@code channel=<prefix><channel>} (null: no channel attribute). */
    public Lanes system(String system, String centre, String channel) {
        List<DeviceSpec> specs = List.of(
                spec(system, "lane", "lane", centre, channel), spec(system, "term-a", "terminal", centre, channel),
                spec(system, "term-b", "terminal", centre, channel), spec(system, "display", "display", centre, channel));
        devices.addDevices(specs);
        specs.forEach(s -> all.add(s.controllerId()));
        return this;
    }

    /** A lane system of only some of the four roles ({@code lane}, {@code term-a}, {@code term-b}, {@code display}). */
    public Lanes systemOf(String system, String centre, String... roles) {
        Map<String, String> types = Map.of("lane", "lane", "term-a", "terminal", "term-b", "terminal", "display", "display");
        List<DeviceSpec> specs = Arrays.stream(roles).map(r -> spec(system, r, types.get(r), centre, null)).toList();
        devices.addDevices(specs);
        specs.forEach(s -> all.add(s.controllerId()));
        return this;
    }

    /** A device that belongs to no system, in a channel. */
    public Lanes standalone(String name, String channel) {
        DeviceSpec spec = DeviceSpec.of(prefix + name, Map.of("device_type", prefix + "solo", "channel", prefix + channel));
        devices.addDevices(List.of(spec));
        all.add(spec.controllerId());
        return this;
    }

    /**
     * Any other device: id {@code <prefix><name>}, the attributes as given (values are not prefixed) except that
     * {@code device_type} (required) is prefixed, like every device of the fleet.
     */
    public Lanes device(String name, Map<String, String> attributes) {
        Map<String, String> a = new HashMap<>(attributes);
        a.put("device_type", prefix + attributes.get("device_type"));
        DeviceSpec spec = DeviceSpec.of(prefix + name, a);
        devices.addDevices(List.of(spec));
        all.add(spec.controllerId());
        return this;
    }

    /** Moves some devices of a system (roles, or all when none given) to another channel. */
    public void move(String system, String channel, String... roles) {
        List<String> which = roles.length == 0 ? List.of("lane", "term-a", "term-b", "display") : List.of(roles);
        which.forEach(role -> devices.setAttributes(id(system, role), Map.of("channel", prefix + channel)));
        // a device reports on its next poll; on a loaded machine hawkBit let polls wait longer than 30 s (2026-12-06)
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            for (String role : which) {
                assertThat(hawkbit.attributes(id(system, role)).get("channel")).isEqualTo(prefix + channel);
            }
        });
    }

    /** Creates a channel whose members report {@code channel=<prefix><name>}; returns its id. */
    public int channel(String name, String extraJson) {
        return Api.admin().body("{\"name\": \"" + prefix + name + "\", \"match\": \"attribute.channel==" + prefix + name
                        + "\"" + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}")
                .post("/qawk/v1/fleets").then().statusCode(201).extract().path("id");
    }

    public static JsonPath channelView(int id) {
        return Api.viewer().get("/qawk/v1/fleets/" + id).then().statusCode(200).extract().jsonPath();
    }

    public static void sync() {
        Api.syncInventory();
    }

    private DeviceSpec spec(String system, String role, String type, String centre, String channel) {
        Map<String, String> attributes = new HashMap<>(Map.of("device", system, "device_type", prefix + type,
                "centerid", centre));
        if (channel != null) {
            attributes.put("channel", prefix + channel);
        }
        return DeviceSpec.of(id(system, role), attributes);
    }

    public String id(String system, String role) {
        return prefix + system + "-" + role;
    }

    public void behaviour(String system, String role, Behaviour b) {
        devices.setBehaviour(id(system, role), b);
    }

    /** Installs version {@code version} on every device directly through hawkBit, as if a past update had. */
    public void preinstall(String version) {
        Map<String, String> roleSet = Map.of("lane", "app", "term-a", "term", "term-b", "term", "display", "disp");
        roleSet.forEach((role, set) -> {
            List<String> ids = all.stream().filter(id -> id.endsWith("-" + role)).toList();
            if (!ids.isEmpty()) {
                hawkbit.assign(set(set + ":" + version), ids);
            }
        });
        awaitInSync(hawkbit, all, Duration.ofSeconds(60));
    }

    /** Waits until hawkBit says each of these devices runs what it was assigned ({@code in_sync}). */
    static void awaitInSync(HawkbitFixtures hawkbit, Collection<String> ids, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (String id : ids) {
                assertThat(hawkbit.updateStatus(id)).as(id).isEqualTo("in_sync");
            }
        });
    }

    /** Waits until hawkBit has every device's attributes, then syncs the inventory once. */
    public void discovered(int systems) {
        awaitDiscovered(hawkbit, prefix, all.size(), typeId, systems, admin, viewer.get());
    }

    /**
     * Waits until hawkBit has the attributes of all {@code devices} whose type starts with {@code prefix}, syncs the
     * inventory once, and checks the type has {@code systems} systems.
     */
    static void awaitDiscovered(HawkbitFixtures hawkbit, String prefix, int devices, int typeId, int systems,
                                Supplier<RequestSpecification> admin, RequestSpecification viewer) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(hawkbit.findTargetIds("attribute.device_type==" + prefix + "*")).hasSize(devices));
        Api.syncInventory(admin);
        viewer.get("/qawk/v1/systemtypes/" + typeId + "/systems").then().statusCode(200)
                .body("total", Matchers.equalTo(systems));
    }

    /** Creates and starts a deployment; returns its id. */
    public int deploy(int manifestId, String extraJson) {
        int id = Api.admin().body("{\"name\": \"" + prefix + "deployment\", \"manifestId\": " + manifestId
                        + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        return id;
    }

    public static JsonPath deployment(int id) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200).extract().jsonPath();
    }

    public static JsonPath runs(int id) {
        return Api.viewer().get("/qawk/v1/systemdeployments/" + id + "/runs").then().statusCode(200).extract().jsonPath();
    }

    /** Waits for the deployment to reach {@code state}. */
    public static JsonPath awaitState(int id, String state, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(500))
                .until(() -> state.equals(deployment(id).getString("state")));
        return deployment(id);
    }

    public long installedSetId(String controllerId) {
        return hawkbit.installedDsId(controllerId).orElse(-1L);
    }

    @Override
    public void close() {
        devices.close();
    }
}
