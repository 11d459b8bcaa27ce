package io.qawk.orchestrator.deployment.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import io.qawk.orchestrator.channel.ReleaseEngine;
import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.inventory.InventorySync;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.SetInfo;
import io.qawk.orchestrator.testsupport.Api;
import io.quarkus.arc.Arc;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

/**
 * A flow test's fleet and hands: lanes as {@code testsupport/Lanes} builds them in the real hawkBit (per system a lane
 * computer at order 2, two terminals and a score display at order 1; everything prefixed, so flows never see each
 * other's fleets), built in hawkBit's in-memory double, and the engine driven pass by pass: {@link #tick()} is one
 * pass of the deployment engine and the release engine, {@link #advance} moves the clock of the service and of
 * hawkBit. Devices finish an assignment at once (hawkBit says so on the next request), unless told to fail it or to
 * keep silent ({@link #behave}); a silent device reports when told ({@link #report}).
 */
public final class Flow {

    /** What each device does with a set (by controller id; set name and version → outcome), else succeed. */
    private static final Map<String, Behaviour> BEHAVIOUR = new ConcurrentHashMap<>();

    /** The double's devices: each answers at once as {@link #behave} said, else succeeds. */
    static final ScaleHawkbit.DeviceRule DEVICES = new ScaleHawkbit.DeviceRule() {
        @Override
        public Duration delay(String controllerId, SetInfo set) {
            return Duration.ZERO;
        }

        @Override
        public Outcome outcome(String controllerId, SetInfo set) {
            Behaviour b = BEHAVIOUR.get(controllerId);
            return b == null ? Outcome.SUCCESS : b.outcome(set);
        }
    };

    /** What a device does with the sets it is given. */
    @FunctionalInterface
    public interface Behaviour {
        Outcome outcome(SetInfo set);

        static Behaviour succeed() {
            return set -> Outcome.SUCCESS;
        }

        /** Says nothing of any set until {@link Flow#report} (as a device that cannot reach hawkBit, or hangs). */
        static Behaviour silent() {
            return set -> Outcome.NEVER;
        }

        /** Fails to install the set {@code label} ({@code name:version}), installs any other. */
        static Behaviour failFor(String label) {
            return set -> set.label().equals(label) ? Outcome.FAILURE : Outcome.SUCCESS;
        }
    }

    public static final List<String> ROLES = List.of("lane", "term-a", "term-b", "display");
    private static final Map<String, String> TYPE_OF_ROLE = Map.of("lane", "lane", "term-a", "terminal", "term-b",
            "terminal", "display", "display");
    private static final Map<String, String> SET_OF_ROLE = Map.of("lane", "app", "term-a", "term", "term-b", "term",
            "display", "disp");

    public final String prefix;
    public final ScaleHawkbit hawkbit = FlowHawkbitResource.current();
    public final Map<String, Long> sets = new LinkedHashMap<>();
    private final List<String> devices = new ArrayList<>();
    public int typeId;

    public Flow(String prefix) {
        this.prefix = prefix;
        DEPLOYED.clear();
        forgetEarlierChannels();
        // again from the test's side, so that the double's time and devices are this class loader's
        hawkbit.clock(() -> FlowClock.now().toEpochMilli()).deviceRule(DEVICES);
    }

    /**
     * Earlier flows' channels are deleted, their releases with them: every current release is passed on every tick, so
     * they made each pass of the flows after them slower (100–145 ms of a pass late in the suite, 9–50 ms early). One
     * the service keeps (its deployment has not ended, or another channel promotes to it) stays.
     */
    private static void forgetEarlierChannels() {
        List<Integer> left = read().get("/qawk/v1/fleets").then().statusCode(200).extract().jsonPath().getList("id");
        boolean deleted = true;
        while (deleted && !left.isEmpty()) {
            deleted = false;
            List<Integer> kept = new ArrayList<>();
            for (int id : left) {
                int status = RestAssured.given().auth().preemptive().basic("admin", Api.ADMIN_PASSWORD)
                        .delete("/qawk/v1/fleets/" + id).then().extract().statusCode();
                if (status == 204) {
                    deleted = true;
                } else {
                    kept.add(id);
                }
            }
            left = kept;
        }
    }

    // ------------------------------------------------------------------------------------------------ the fleet

    /** The sets {@code <prefix>app}, {@code -term}, {@code -disp} in versions 1 and 2, and the system type. */
    public Flow withSetsAndType() {
        for (String name : List.of("app", "term", "disp")) {
            for (String version : List.of("1", "2")) {
                sets.put(name + ":" + version, hawkbit.addDistributionSet(prefix + name, version));
            }
        }
        typeId = Api.admin().body("""
                {"name": "%1$slane", "systemKey": "attribute.device", "groupKey": "attribute.centerid",
                 "components": [
                   {"componentType": "lane", "match": "attribute.device_type==%1$slane"},
                   {"componentType": "terminal", "match": "attribute.device_type==%1$sterminal"},
                   {"componentType": "display", "match": "attribute.device_type==%1$sdisplay"}]}
                """.formatted(prefix)).post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        return this;
    }

    /** A lane system of four devices in a centre, running version 1 of its sets. */
    public Flow system(String system, String centre) {
        return system(system, centre, null);
    }

    /** The same, its devices reporting {@code channel=<prefix><channel>} (null: no channel attribute). */
    public Flow system(String system, String centre, String channel) {
        return system(system, centre, channel, ROLES);
    }

    /** A lane system of only some of the four roles ({@code lane}, {@code term-a}, {@code term-b}, {@code display}). */
    public Flow systemOf(String system, String centre, String... roles) {
        return system(system, centre, null, List.of(roles));
    }

    private Flow system(String system, String centre, String channel, List<String> roles) {
        for (String role : roles) {
            Map<String, String> attributes = new HashMap<>(Map.of("device", system, "device_type",
                    prefix + TYPE_OF_ROLE.get(role), "centerid", centre));
            if (channel != null) {
                attributes.put("channel", prefix + channel);
            }
            hawkbit.addTarget(id(system, role), attributes);
            hawkbit.preinstall(set(SET_OF_ROLE.get(role) + ":1"), List.of(id(system, role)));
            devices.add(id(system, role));
        }
        return this;
    }

    /**
     * A standalone device {@code <prefix><name>} in the channel: it matches no component of the type, so it forms no
     * system and takes a release's set, not its manifest.
     */
    public Flow standalone(String name, String channel) {
        hawkbit.addTarget(prefix + name, Map.of("device_type", prefix + "solo", "channel", prefix + channel));
        devices.add(prefix + name);
        return this;
    }

    /** A channel of this flow, {@code <prefix><name>}, of the devices that report it ({@code extraJson}: its settings). */
    public int channel(String name, String extraJson) {
        return Api.admin().body("{\"name\": \"" + prefix + name + "\", \"match\": \"attribute.channel==" + prefix
                        + name + "\"" + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}")
                .post("/qawk/v1/fleets").then().statusCode(201).extract().path("id");
    }

    /** The inventory synced once (the test's, as nothing syncs on its own), and the type has {@code systems}. */
    public Flow discovered(int systems) {
        sync();
        assertThat(Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems").then().statusCode(200).extract()
                .jsonPath().getInt("total")).as("systems of %slane", prefix).isEqualTo(systems);
        return this;
    }

    public static void sync() {
        Arc.container().instance(InventorySync.class).get().syncNow();
    }

    public String id(String system, String role) {
        return prefix + system + "-" + role;
    }

    public long set(String key) {
        return sets.get(key);
    }

    /** A manifest: terminals and display at order 1, the lane computer at order 2, on version {@code version}. */
    public int manifest(String name, String version) {
        return Api.admin().body("""
                {"name": "%s", "systemTypeId": %d, "components": [
                  {"componentType": "terminal", "distributionSetId": %d, "order": 1},
                  {"componentType": "display", "distributionSetId": %d, "order": 1},
                  {"componentType": "lane", "distributionSetId": %d, "order": 2}]}
                """.formatted(prefix + name, typeId, set("term:" + version), set("disp:" + version),
                        set("app:" + version))).post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** Creates and starts a deployment (nothing passes until the test ticks); returns its id. */
    public int deploy(int manifestId, String extraJson) {
        int id = Api.admin().body("{\"name\": \"" + prefix + "deployment\", \"manifestId\": " + manifestId
                        + (extraJson.isEmpty() ? "" : ", " + extraJson) + "}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        DEPLOYED.add(id);
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        return id;
    }

    // ------------------------------------------------------------------------------------------------ devices

    /** How {@code role} of {@code system} answers assignments from now on. */
    public void behave(String system, String role, Behaviour b) {
        BEHAVIOUR.put(id(system, role), b);
    }

    /** How the standalone device {@code <prefix><name>} answers assignments from now on. */
    public void behave(String name, Behaviour b) {
        BEHAVIOUR.put(prefix + name, b);
    }

    /** A silent standalone device reports now on its open action. */
    public void report(String name, Outcome outcome) {
        BEHAVIOUR.remove(prefix + name);
        hawkbit.report(prefix + name, outcome);
    }

    /** A silent device reports now on its open action: installed ({@code SUCCESS}) or failed ({@code FAILURE}). */
    public void report(String system, String role, Outcome outcome) {
        BEHAVIOUR.remove(id(system, role));
        hawkbit.report(id(system, role), outcome);
    }

    /** The set the device runs, as hawkBit says ({@code name:version} without the prefix), or null. */
    public String installed(String system, String role) {
        return hawkbit.installed(id(system, role)).map(s -> s.label().substring(prefix.length())).orElse(null);
    }

    /** The sets hawkBit was asked to give the device, oldest first ({@code name:version} without the prefix). */
    public List<String> assignedSets(String system, String role) {
        Map<Long, String> labels = new HashMap<>();
        sets.forEach((label, id) -> labels.put(id, label));
        return hawkbit.actions(id(system, role)).stream().map(a -> labels.get(a.setId())).toList();
    }

    /** hawkBit cancelled no action of the system's devices. */
    public void assertNoCancel(String system) {
        for (String role : ROLES) {
            assertThat(hawkbit.actions(id(system, role))).as(role).noneMatch(a -> "canceled".equals(a.state()));
        }
    }

    /** Every device of the system runs {@code version} of its set. */
    public void assertWholeOn(String system, String version) {
        assertThat(installed(system, "lane")).isEqualTo("app:" + version);
        assertThat(installed(system, "term-a")).isEqualTo("term:" + version);
        assertThat(installed(system, "term-b")).isEqualTo("term:" + version);
        assertThat(installed(system, "display")).isEqualTo("disp:" + version);
    }

    // ------------------------------------------------------------------------------------------------ time

    /** The time a pass takes, by the flow's clock: passes are that far apart, as the engine's loop's are. */
    public static final Duration PASS = Duration.ofSeconds(1);

    /** The deployments of the flow under way (for the words of a failure). */
    private static final List<Integer> DEPLOYED = new ArrayList<>();

    /** One pass of the deployment engine and the release engine, a pass's time after the last. */
    public static void tick() {
        FlowClock.advance(PASS);
        Arc.container().instance(ReleaseEngine.class).get().passAll();
        Arc.container().instance(DeploymentEngine.class).get().passAll();
    }

    /** {@code n} passes. */
    public static void tick(int n) {
        for (int i = 0; i < n; i++) {
            tick();
        }
    }

    /**
     * Passes until {@code done} holds, at most {@code passes}; fails saying how many were not enough. The clock
     * stands still: what needs time is {@link #advance}d.
     */
    public static int tickUntil(int passes, String what, BooleanSupplier done) {
        for (int i = 1; i <= passes; i++) {
            tick();
            if (done.getAsBoolean()) {
                return i;
            }
        }
        StringBuilder where = new StringBuilder();
        for (int id : DEPLOYED) {
            where.append("\ndeployment ").append(id).append(' ').append(state(id));
            for (Map<String, Object> r : runs(id).<Map<String, Object>>getList("")) {
                where.append("\n  ").append(r.get("system")).append(' ').append(r.get("state")).append(": ")
                        .append(r.get("reason")).append(" ").append(r.get("components"));
                where.append("\n  timeline: ").append(events(id, ((Number) r.get("id")).intValue())
                        .getList("message"));
            }
        }
        throw new AssertionError(what + ": not within " + passes + " passes" + where);
    }

    /** Moves the clock of the service and hawkBit's forward by {@code by}, without a pass. */
    public static void advance(Duration by) {
        FlowClock.advance(by);
    }

    /**
     * Moves the clock by {@code total} in steps of {@code step}, with a pass after each, as the engine's loop passes
     * while it watches: time so passed counts as watched.
     */
    public static void watch(Duration total, Duration step) {
        for (Duration left = total; !left.isNegative() && !left.isZero(); left = left.minus(step)) {
            FlowClock.advance(left.compareTo(step) < 0 ? left : step);
            tick();
        }
    }

    // ------------------------------------------------------------------------------------------------ reading

    /**
     * A read as the viewer. Not checked against the published contract as {@link Api#viewer()}'s are (the API's own
     * tests do that): a flow reads after nearly every pass.
     */
    private static RequestSpecification read() {
        return RestAssured.given().auth().preemptive().basic("viewer", Api.VIEWER_PASSWORD);
    }

    public static JsonPath deployment(int id) {
        return read().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200).extract().jsonPath();
    }

    public static String state(int id) {
        return deployment(id).getString("state");
    }

    public static JsonPath runs(int id) {
        return read().get("/qawk/v1/systemdeployments/" + id + "/runs").then().statusCode(200).extract()
                .jsonPath();
    }

    /** A field of the run of {@code system} ({@code state}, {@code reason}, {@code id} …). */
    public static String run(int deployment, String system, String field) {
        return runs(deployment).getString("find { it.system == '" + system + "' }." + field);
    }

    public static int runId(int deployment, String system) {
        return runs(deployment).getInt("find { it.system == '" + system + "' }.id");
    }

    /** The state of a device in its run (component: lane, terminal or display). */
    public String deviceState(int deployment, String system, String role) {
        return runs(deployment).getString("find { it.system == '" + system + "' }.components."
                + TYPE_OF_ROLE.get(role) + ".find { it.controllerId == '" + id(system, role) + "' }.state");
    }

    public static JsonPath events(int deployment, int runId) {
        return read().get("/qawk/v1/systemdeployments/" + deployment + "/runs/" + runId + "/events").then()
                .statusCode(200).extract().jsonPath();
    }

    public static List<String> messages(int deployment, String system) {
        return events(deployment, runId(deployment, system)).getList("message");
    }

    public static List<String> types(int deployment, String system) {
        return events(deployment, runId(deployment, system)).getList("type");
    }
}
