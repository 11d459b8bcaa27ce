package io.qawk.orchestrator.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.DeviceSpec;

/**
 * What the demo mode puts into its local hawkBit: the simulated devices, the distribution sets, the system type and
 * the manifest. Pure data, no I/O, so the layout can be checked without a hawkBit.
 * <p>
 * The fleet is a bowling operator's: three centres ({@code c01}..{@code c03}) with eight lanes between them. Each lane
 * ({@code device-01}..{@code device-08}) is one system: a lane computer ({@code device_type=device1}), two terminals
 * ({@code device2}) and a score display ({@code device3}); lane {@code device-08} has lost its display, so one system is
 * incomplete. Besides the lanes there are kiosks that belong to no system, and one terminal that reports no
 * {@code device} attribute, so the system type's problem list has an entry. The display of lane {@code device-05}
 * fails every update to {@code device3-fw:2.0}, so a deployment of the demo manifest rolls that lane back.
 * <p>
 * The system type carries two compatibility rules ({@link #RULES}: new terminal firmware needs the new app, a new
 * display firmware needs new terminal firmware); lane {@code device-03}'s display runs the new firmware already
 * ({@link #DRIFTED_SYSTEM}), so the census finds it broken and a deployment holds it; and a rollout prepared in hawkBit
 * outside Qawk ({@link #ROLLOUT}: the new terminal firmware alone) waits there, so the guard has a threat to show.
 */
public final class DemoLanes {

    public static final String SYSTEM_TYPE = "device-system";
    public static final String MANIFEST = "device-system-2.0";

    public static final List<String> CENTRES = List.of("c01", "c02", "c03");
    public static final int LANES = 8;
    /** The lane whose score display fails the new display firmware. */
    public static final String FAILING_SYSTEM = "device-05";
    /** The lane without a score display. */
    public static final String INCOMPLETE_SYSTEM = "device-08";
    /** A terminal that reports no {@code device} attribute: matched by the system type, but in no system. */
    public static final String STRAY_DEVICE = "stray-terminal-01";
    public static final int KIOSKS = 3;
    /**
     * The health query the tour gives the lane computers (docs/tour.md): a lane computer reports
     * {@code lane_state=scoring} while its lane scores, as every demo lane does, so a soak keeps a healthy lane.
     */
    public static final String HEALTH = "attribute.lane_state==scoring";

    /** A distribution set by name and version. */
    public record SetRef(String name, String version) {
        public SetRef {
            Objects.requireNonNull(name);
            Objects.requireNonNull(version);
        }

        public String label() {
            return name + ":" + version;
        }
    }

    /** One component of the demo manifest: the set it should run and its order (lower goes first). */
    public record ManifestPart(String componentType, SetRef set, int order) {
    }

    public static final SetRef APP_1 = new SetRef("app", "1.0");
    public static final SetRef APP_2 = new SetRef("app", "2.0");
    public static final SetRef DEVICE2_FW_1 = new SetRef("device2-fw", "1.0");
    public static final SetRef DEVICE2_FW_2 = new SetRef("device2-fw", "2.0");
    public static final SetRef DEVICE3_FW_1 = new SetRef("device3-fw", "1.0");
    public static final SetRef DEVICE3_FW_2 = new SetRef("device3-fw", "2.0");

    /** The sets created in hawkBit, in creation order (a fresh hawkBit gives them ids 1..6 in this order). */
    public static final List<SetRef> SETS = List.of(APP_1, APP_2, DEVICE2_FW_1, DEVICE2_FW_2, DEVICE3_FW_1,
            DEVICE3_FW_2);

    /**
     * Why the demo type's one rule holds: terminal firmware 2 speaks only the v2 protocol, which app 2 brings (app 2
     * still speaks v1 to old terminals).
     */
    public static final String WHY = "device2-fw 2 speaks only the v2 terminal protocol, which app 2 brings";

    /**
     * The demo type's compatibility rule: a lane whose terminals run {@code device2-fw} 2.0 or later needs its lane
     * computer on {@code app} 2.0 or later. So the manifest updates the lane computer first, and a hawkBit rollout of
     * the new terminal firmware alone ({@link #ROLLOUT}) would break every lane still on app 1.0.
     */
    public static final Rule RULE = new Rule(Map.of("device2", "device2-fw:[2.0,)"), Map.of("device1", "app:[2.0,)"),
            WHY);

    /** Why the second rule holds. */
    public static final String DISPLAY_WHY = "device3-fw 2 reads the scores in the v2 terminal protocol";

    /** The second rule: a display on {@code device3-fw} 2.0 or later needs its terminals on {@code device2-fw} 2.0. */
    public static final Rule DISPLAY_RULE = new Rule(Map.of("device3", "device3-fw:[2.0,)"),
            Map.of("device2", "device2-fw:[2.0,)"), DISPLAY_WHY);

    /** The demo type's rules: {@code rules[0]} {@link #RULE}, {@code rules[1]} {@link #DISPLAY_RULE}. */
    public static final List<Rule> RULES = List.of(RULE, DISPLAY_RULE);

    /**
     * The lane whose display was updated by hand ahead of its terminals: it runs {@code device3-fw:2.0} with its
     * terminals on 1.0, so it breaks {@link #DISPLAY_RULE} from the start. The manifest's first order (the lane
     * computer) leaves that broken, so a deployment holds this lane ("held: …") while it updates the others.
     */
    public static final String DRIFTED_SYSTEM = "device-03";

    /**
     * The order the rules ask for: the lane computer first (its app 2 speaks to old and new terminals), then the
     * terminals (their firmware 2 needs app 2, {@link #RULE}), then the display (its firmware 2 needs terminal
     * firmware 2, {@link #DISPLAY_RULE}).
     */
    public static final List<ManifestPart> MANIFEST_PARTS = List.of(
            new ManifestPart("device1", APP_2, 1),
            new ManifestPart("device2", DEVICE2_FW_2, 2),
            new ManifestPart("device3", DEVICE3_FW_2, 3));

    /**
     * A rollout a colleague prepared in hawkBit itself, outside Qawk: the new terminal firmware to every terminal,
     * not started. The guard lists it as a threat: it would break {@link #RULE} on every lane still on app 1.0.
     */
    public static final RolloutRef ROLLOUT = new RolloutRef("device2-fw 2.0 to all terminals", DEVICE2_FW_2,
            "attribute.device_type==device2", 1);

    /** A hawkBit rollout: its name, the set it assigns, the targets it reaches (a FIQL query) and its group count. */
    public record RolloutRef(String name, SetRef set, String targetFilterQuery, int groups) {
    }

    private DemoLanes() {
    }

    /**
     * The set a device gets on a fresh hawkBit: its component's 1.0 set, but {@code device3-fw:2.0} on the display
     * of {@link #DRIFTED_SYSTEM}; empty for a device in no component (the kiosks).
     */
    public static Optional<SetRef> firstSet(DeviceSpec d) {
        String type = d.attributes().get("device_type");
        if ("device3".equals(type) && DRIFTED_SYSTEM.equals(d.attributes().get("device"))) {
            return Optional.of(DEVICE3_FW_2);
        }
        return Optional.ofNullable(switch (type == null ? "" : type) {
            case "device1" -> APP_1;
            case "device2" -> DEVICE2_FW_1;
            case "device3" -> DEVICE3_FW_1;
            default -> null;
        });
    }

    /** The system key value of lane {@code n} (1-based): {@code device-01}. */
    public static String lane(int n) {
        return String.format("device-%02d", n);
    }

    /** The centre of lane {@code n} (1-based): lanes are spread over the centres in runs, 3 + 3 + 2. */
    public static String centreOf(int n) {
        int perCentre = (LANES + CENTRES.size() - 1) / CENTRES.size();
        return CENTRES.get((n - 1) / perCentre);
    }

    /**
     * Every simulated device, in a stable order. {@code delay} is how long a device takes to install a set (its
     * {@link Behaviour#delay()}).
     */
    public static List<DeviceSpec> devices(Duration delay) {
        List<DeviceSpec> out = new ArrayList<>();
        for (int n = 1; n <= LANES; n++) {
            String system = lane(n);
            String centre = centreOf(n);
            out.add(device(system + "-lane", system, "device1", centre, Behaviour.succeedAfter(delay)));
            out.add(device(system + "-term-1", system, "device2", centre, Behaviour.succeedAfter(delay)));
            out.add(device(system + "-term-2", system, "device2", centre, Behaviour.succeedAfter(delay)));
            if (!system.equals(INCOMPLETE_SYSTEM)) {
                Behaviour display = system.equals(FAILING_SYSTEM)
                        ? Behaviour.failFor(DEVICE3_FW_2.name(), DEVICE3_FW_2.version()).withDelay(delay)
                        : Behaviour.succeedAfter(delay);
                out.add(device(system + "-display", system, "device3", centre, display));
            }
        }
        for (int k = 1; k <= KIOSKS; k++) {
            Map<String, String> attrs = new LinkedHashMap<>();
            attrs.put("device_type", "kiosk");
            attrs.put("centerid", CENTRES.get((k - 1) % CENTRES.size()));
            out.add(new DeviceSpec(String.format("kiosk-%02d", k), attrs, Behaviour.succeedAfter(delay)));
        }
        Map<String, String> stray = new LinkedHashMap<>();
        stray.put("device_type", "device2");
        stray.put("centerid", CENTRES.get(1));
        out.add(new DeviceSpec(STRAY_DEVICE, stray, Behaviour.succeedAfter(delay)));
        return List.copyOf(out);
    }

    private static DeviceSpec device(String controllerId, String system, String type, String centre, Behaviour b) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("device", system);
        attrs.put("device_type", type);
        attrs.put("centerid", centre);
        if ("device1".equals(type)) {
            attrs.put("lane_state", "scoring");
        }
        return new DeviceSpec(controllerId, attrs, b);
    }

    /** A compatibility rule as the API takes it: {@code {"if": {…}, "then": {…}, "why": "…"}}. */
    public record Rule(@JsonProperty("if") Map<String, String> when, Map<String, String> then, String why) {
    }

    /** The body of {@code POST /qawk/v1/systemtypes}. */
    public record SystemTypeBody(String name, String systemKey, String groupKey, List<Component> components,
                                 List<Rule> rules, String guard) {
        public record Component(String componentType, String match) {
        }
    }

    /**
     * The system type the demo creates: one system per {@code device} value, its centre from {@code centerid}, the
     * {@link #RULES}, and {@code guard: watch}: the guard lists what hawkBit would do to the lanes outside Qawk
     * and holds nothing, so the waiting {@link #ROLLOUT} stays as it is.
     */
    public static SystemTypeBody systemType() {
        return new SystemTypeBody(SYSTEM_TYPE, "attribute.device", "attribute.centerid", List.of(
                new SystemTypeBody.Component("device1", "attribute.device_type==device1"),
                new SystemTypeBody.Component("device2", "attribute.device_type==device2"),
                new SystemTypeBody.Component("device3", "attribute.device_type==device3")), RULES, "watch");
    }

    /** The demo manifest (the body of {@code POST /qawk/v1/manifests}), given the ids hawkBit gave the sets. */
    public static Map<String, Object> manifest(long systemTypeId, Map<SetRef, Long> setIds) {
        List<Map<String, Object>> components = new ArrayList<>();
        for (ManifestPart p : MANIFEST_PARTS) {
            components.add(Map.of("componentType", p.componentType(), "distributionSetId", setIds.get(p.set()),
                    "order", p.order()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", MANIFEST);
        body.put("systemTypeId", systemTypeId);
        body.put("components", components);
        return body;
    }
}
