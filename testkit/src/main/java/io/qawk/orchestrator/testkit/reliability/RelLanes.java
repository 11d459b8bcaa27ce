package io.qawk.orchestrator.testkit.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.HawkbitServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Simulated systems in the real hawkBit, for the reliability tests. A system has devices in roles; a role fills a
 * component that gets a distribution set named {@code <prefix><setName>} at an order. Everything carries the prefix.
 */
public final class RelLanes implements AutoCloseable {

    /** A device role: its component type, the set name the component runs, and the component's order. */
    public record Role(String role, String componentType, String setName, int order) {
    }

    public static final List<Role> LANE = List.of(new Role("lane", "lane", "app", 2),
            new Role("term-a", "terminal", "term", 1), new Role("term-b", "terminal", "term", 1),
            new Role("display", "display", "disp", 1));
    public static final List<Role> KIOSK = List.of(new Role("head", "head", "head", 1),
            new Role("screen", "screen", "scr", 2));

    /** One action of a device as hawkBit holds it. */
    public record Act(long id, long setId, long createdAt) {
    }

    public final String prefix;
    public final DeviceSimulator devices;
    public final HawkbitFixtures hawkbit;
    private final Map<String, Long> sets = new ConcurrentHashMap<>();
    private final Map<String, Role> roleOf = new LinkedHashMap<>();
    private final Map<String, List<String>> systemDevices = new LinkedHashMap<>();
    private final Map<Long, Long> setOfAction = new ConcurrentHashMap<>();
    private final List<Role> roles;

    public RelLanes(String prefix, HawkbitServer server, List<Role> roles) {
        this.prefix = prefix;
        this.roles = roles;
        this.devices = new DeviceSimulator(server);
        this.hawkbit = new HawkbitFixtures(server);
    }

    /** Adds a system with devices in the given roles (all roles when none given). */
    public RelLanes system(String system, String centre, String... only) {
        List<String> wanted = only.length == 0 ? roles.stream().map(Role::role).toList() : List.of(only);
        List<DeviceSpec> specs = new ArrayList<>();
        for (Role r : roles) {
            if (!wanted.contains(r.role())) {
                continue;
            }
            String id = id(system, r.role());
            specs.add(DeviceSpec.of(id, Map.of("device", prefix + system, "device_type", prefix + r.componentType(),
                    "centerid", centre)));
            roleOf.put(id, r);
            systemDevices.computeIfAbsent(prefix + system, k -> new ArrayList<>()).add(id);
        }
        devices.addDevices(specs);
        return this;
    }

    public String id(String system, String role) {
        return prefix + system + "-" + role;
    }

    /** System names as the service knows them (with the prefix). */
    public List<String> systemNames() {
        return List.copyOf(systemDevices.keySet());
    }

    public List<String> devicesOf(String systemName) {
        return systemDevices.get(systemName);
    }

    public List<String> allDevices() {
        return List.copyOf(roleOf.keySet());
    }

    public Role role(String controllerId) {
        return roleOf.get(controllerId);
    }

    /** The set {@code <prefix><name>} in {@code version}, created in hawkBit on first use. */
    public long set(String name, int version) {
        return sets.computeIfAbsent(name + ":" + version, k -> hawkbit.createDistributionSet(prefix + name,
                String.valueOf(version)));
    }

    /** The set the device's component runs in {@code version}. */
    public long setFor(String controllerId, int version) {
        return set(roleOf.get(controllerId).setName(), version);
    }

    public int createType(QawkApi api) {
        String components = roles.stream().map(Role::componentType).distinct()
                .map(ct -> "{\"componentType\": \"" + ct + "\", \"match\": \"attribute.device_type==" + prefix + ct + "\"}")
                .collect(Collectors.joining(", "));
        return api.post("/qawk/v1/systemtypes", "{\"name\": \"" + prefix + "type\", \"systemKey\": \"attribute.device\", "
                + "\"groupKey\": \"attribute.centerid\", \"components\": [" + components + "]}", 201).getInt("id");
    }

    /** A manifest putting every component on its set in {@code version}. */
    public int manifest(QawkApi api, int typeId, int version) {
        return manifest(api, typeId, version, Map.of());
    }

    /** The same, with verification queries for some component types (plain FIQL, no double quotes). */
    public int manifest(QawkApi api, int typeId, int version, Map<String, String> verify) {
        Map<String, Role> byType = new LinkedHashMap<>();
        roles.forEach(r -> byType.putIfAbsent(r.componentType(), r));
        String components = byType.values().stream()
                .map(r -> "{\"componentType\": \"" + r.componentType() + "\", \"distributionSetId\": "
                        + set(r.setName(), version) + ", \"order\": " + r.order()
                        + (verify.containsKey(r.componentType()) ? ", \"verify\": \"" + verify.get(r.componentType()) + "\""
                        : "") + "}")
                .collect(Collectors.joining(", "));
        return api.post("/qawk/v1/manifests", "{\"name\": \"" + prefix + version + "\", \"systemTypeId\": " + typeId
                + ", \"components\": [" + components + "]}", 201).getInt("id");
    }

    /** Installs {@code version} everywhere straight through hawkBit, as a past update would have. */
    public void preinstall(int version) {
        Map<Long, List<String>> bySet = allDevices().stream().collect(Collectors.groupingBy(id -> setFor(id, version)));
        bySet.forEach((set, ids) -> hawkbit.assign(set, ids));
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (String id : allDevices()) {
                assertThat(hawkbit.installedDsId(id)).as(id).contains(setFor(id, version));
                assertThat(hawkbit.updateStatus(id)).as(id).isEqualTo("in_sync");
            }
        });
    }

    /** Waits until hawkBit has every device's attributes and the service sees {@code systems} systems. */
    public void awaitDiscovered(QawkApi api, int typeId) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(hawkbit.findTargetIds("attribute.device_type==" + prefix + "*")).hasSize(roleOf.size()));
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            api.sync();
            assertThat(api.systems(typeId)).isEqualTo(systemDevices.size());
        });
    }

    public void behaviour(String controllerId, Behaviour b) {
        devices.setBehaviour(controllerId, b);
    }

    /** The device's actions in hawkBit, oldest first, each with its distribution set (from the action's own link). */
    public List<Act> actions(String controllerId) {
        List<Act> out = new ArrayList<>();
        for (JsonNode a : hawkbit.actions(controllerId)) {
            long id = a.path("id").asLong();
            long set = setOfAction.computeIfAbsent(id, k -> {
                String href = hawkbit.action(controllerId, id).path("_links").path("distributionset").path("href").asText("");
                return Long.parseLong(href.substring(href.lastIndexOf('/') + 1));
            });
            out.add(new Act(id, set, a.path("createdAt").asLong()));
        }
        out.sort(Comparator.comparingLong(Act::id));
        return out;
    }

    /** The newest action id of every device (0 when none): actions above it are new. */
    public Map<String, Long> actionBaseline() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String id : allDevices()) {
            out.put(id, hawkbit.actions(id).stream().mapToLong(a -> a.path("id").asLong()).max().orElse(0));
        }
        return out;
    }

    public long installed(String controllerId) {
        return hawkbit.installedDsId(controllerId).orElse(-1L);
    }

    @Override
    public void close() {
        devices.close();
    }
}
