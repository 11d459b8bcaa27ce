package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.swupdate.SwuImage;
import io.qawk.orchestrator.testkit.swupdate.SwupdateDevices;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Assumptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Systems of real SWUpdate devices (testkit {@link SwupdateDevices}): each system is a controller ({@code ctrl},
 * set {@code <prefix>app}) and a display ({@code display}, set {@code <prefix>disp}), telling Qawk what they are
 * through {@code identify} in their {@code swupdate.cfg}: {@code device} (the system), {@code device_type}
 * (the component), {@code centerid}, and their version ({@code app_version} / {@code disp_version}).
 */
public final class SwupdateLanes implements AutoCloseable {

    public final String prefix;
    public final SwupdateDevices devices;
    public final HawkbitFixtures hawkbit;
    private final Map<String, Long> sets = new LinkedHashMap<>();
    private final List<String> all = new ArrayList<>();
    public int typeId;

    /** Skips the calling test, saying why, where real SWUpdate devices cannot run. */
    public static void assumeAvailable() {
        SwupdateDevices.unavailable().ifPresent(why -> Assumptions.abort("SWUpdate device tests skipped: " + why));
    }

    public SwupdateLanes(String prefix) {
        this.prefix = prefix;
        this.devices = new SwupdateDevices(SharedHawkbit.get(), 1);
        this.hawkbit = new HawkbitFixtures(SharedHawkbit.get());
    }

    /** The set {@code <prefix><name>:<version>} holding {@code image}; remembered as {@code name:version}. */
    public long set(String name, String version, SwuImage image) {
        long id = devices.createSet(prefix + name, version, image);
        sets.put(name + ":" + version, id);
        return id;
    }

    /** The image of a set that installs and makes the device report {@code <field>=<version>}. */
    public SwuImage installs(String name, String version, String field) {
        return SwuImage.installs(label(name, version), Map.of(field, version));
    }

    public String label(String name, String version) {
        return prefix + name + ":" + version;
    }

    public long set(String key) {
        return sets.get(key);
    }

    /** The system type: controller and display by {@code device_type}, systems by {@code device}. */
    public SwupdateLanes type() {
        typeId = Api.admin().body("""
                {"name": "%1$sctrl-display", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "ctrl", "match": "attribute.device_type==%1$sctrl"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}]}
                """.formatted(prefix)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        return this;
    }

    /** A system of two SWUpdate devices on version 1.0, {@code <prefix><system>-ctrl} and {@code -display}. */
    public SwupdateLanes system(String system) {
        devices.add(id(system, "ctrl"), Map.of("device", prefix + system, "device_type", prefix + "ctrl",
                "centerid", "c01", "app_version", "1.0"));
        devices.add(id(system, "display"), Map.of("device", prefix + system, "device_type", prefix + "display",
                "centerid", "c01", "disp_version", "1.0"));
        all.add(id(system, "ctrl"));
        all.add(id(system, "display"));
        return this;
    }

    public String id(String system, String role) {
        return prefix + system + "-" + role;
    }

    /**
     * hawkBit records that every device runs its 1.0 set, as for a fleet brought into hawkBit: an offline assignment,
     * nothing sent to the devices.
     */
    public void onVersion1() {
        List<Map<String, String>> ctrls = all.stream().filter(id -> id.endsWith("-ctrl")).map(id -> Map.of("id", id))
                .toList();
        List<Map<String, String>> displays = all.stream().filter(id -> id.endsWith("-display"))
                .map(id -> Map.of("id", id)).toList();
        hawkbit.post("/rest/v1/distributionsets/" + set("app:1.0") + "/assignedTargets?offline=true", ctrls);
        hawkbit.post("/rest/v1/distributionsets/" + set("disp:1.0") + "/assignedTargets?offline=true", displays);
        Lanes.awaitInSync(hawkbit, all, Duration.ofSeconds(30));
    }

    /** Waits until hawkBit has every device's attributes (sent by SWUpdate at its start), then syncs once. */
    public void discovered(int systems) {
        Lanes.awaitDiscovered(hawkbit, prefix, all.size(), typeId, systems, Api::admin, Api.viewer());
    }

    /** The manifest: the controller at order 1, the display at order 2, each verified by what it reports. */
    public int manifest(String name, long app, long disp) {
        return Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "ctrl", "distributionSetId": %d, "order": 1, "verify": "attribute.app_version==2.0"},
                  {"componentType": "display", "distributionSetId": %d, "order": 2,
                   "verify": "attribute.disp_version==2.0"}]}
                """.formatted(prefix + name, typeId, app, disp))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** Creates and starts a deployment; returns its id. */
    public int deploy(int manifestId, String extraJson) {
        int id = Api.admin().body("{\"name\": \"" + prefix + "deployment\", \"manifestId\": " + manifestId
                        + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        return id;
    }

    /** The run of {@code system} in deployment {@code deployment}. */
    public JsonPath run(int deployment, String system) {
        return new JsonPath(Lanes.runs(deployment).prettify())
                .setRootPath("find { it.system == '" + prefix + system + "' }");
    }

    /** The name of the set hawkBit says the device runs. */
    public String installedInHawkbit(String controllerId) {
        return hawkbit.installedDs(controllerId).map(ds -> ds.path("name").asText() + ":" + ds.path("version").asText())
                .orElse("none");
    }

    @Override
    public void close() {
        devices.close();
    }
}
