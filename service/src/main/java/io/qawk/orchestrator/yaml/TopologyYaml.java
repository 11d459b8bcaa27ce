package io.qawk.orchestrator.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.rules.RuleSpec;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.systemtype.GuardMode;
import io.qawk.orchestrator.systemtype.Component;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.systemtype.SystemTypeRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Mender topology in Qawk's dialect, read into a system type request and written from a system type.
 * <pre>
 * api_version: mender/v1
 * kind: topology
 * system_type: device-system
 * qawk_system_key: attribute.device
 * qawk_group_key: attribute.centerid      # optional
 * components:
 *   - component_type: device1
 *     qawk_match: attribute.device_type==device1
 *     qawk_health: attribute.lane_state==scoring   # optional: kept matching while the system soaks
 * qawk_rules:                             # optional: what the components need of each other
 *   - if: { device1: "app:[2.0,)" }
 *     then: { device2: "device2-fw:[2.0,)" }
 *     why: app 2 speaks the v2 terminal protocol
 * qawk_guard: hold                        # optional: watch (the default) or hold hawkBit work outside Qawk
 * qawk_approval: required                 # optional: none (the default) or required (four eyes, issue 42)
 * </pre>
 * Several entries of one {@code component_type} (Mender's instances of a type) are one Qawk component and must agree.
 */
final class TopologyYaml {

    static final String KIND = "topology";
    private static final Set<String> TOP = new LinkedHashSet<>(List.of("api_version", "kind", "system_type",
            "qawk_system_key", "qawk_group_key", "components", "qawk_rules", "qawk_guard",
            "qawk_approval"));
    private static final Set<String> RULE = new LinkedHashSet<>(List.of("if", "then", "why"));
    private static final Set<String> COMPONENT = new LinkedHashSet<>(List.of("component_type", "qawk_match",
            "qawk_health"));
    private static final Pattern COMPONENT_FIELD = Pattern.compile("components\\[(\\d+)\\](?:\\.(\\w+))?");
    private static final Set<String> COMPONENT_IGNORED = new LinkedHashSet<>(List.of("interface", "interface_args"));

    /**
     * The request the document describes; {@code yamlIndex[i]} is the index in {@code components} of the first entry
     * of the request's component i, so that the service's errors can be told in YAML paths.
     */
    /**
     * A topology as read: the request, each component's place in the YAML, the keys ignored, and which of Qawk's own
     * optional keys the document leaves out ({@code leftOut}: the request's field names; {@code healthLeftOut}: the
     * component types given without {@code qawk_health}), which an import of an existing type keeps as stored.
     */
    record Parsed(SystemTypeRequest request, int[] yamlIndex, List<String> ignored, Set<String> leftOut,
                  Set<String> healthLeftOut) {
    }

    /** Qawk's optional top-level keys and the request fields they fill. */
    private static final Map<String, String> KEPT_WHEN_LEFT_OUT = Map.of("qawk_group_key", "groupKey",
            "qawk_rules", "rules", "qawk_guard", "guard", "qawk_approval", "approval");

    private TopologyYaml() {
    }

    static Parsed read(YamlDocument doc) {
        YamlReading in = new YamlReading(doc);
        in.header(KIND, "/qawk/v1/manifests/import");
        in.errors.throwIfAny();
        JsonNode root = doc.root();
        in.keys(root, "", TOP, Set.of(), "a topology");
        String name = in.text(root, "system_type", "", true);
        String systemKey = in.text(root, "qawk_system_key", "", "is required by Qawk: the device attribute or "
                + "metadata whose value names the system a device is in (e.g. attribute.device)");
        String groupKey = in.text(root, "qawk_group_key", "", false);
        List<SystemTypeRequest.ComponentRequest> components = new ArrayList<>();
        List<Integer> yamlIndex = new ArrayList<>();
        readComponents(in, root.get("components"), components, yamlIndex);
        List<RuleSpec> rules = readRules(in, root.get("qawk_rules"));
        String guard = in.text(root, "qawk_guard", "", false);
        String approval = in.text(root, "qawk_approval", "", false);
        in.errors.throwIfAny();
        Set<String> leftOut = new LinkedHashSet<>();
        KEPT_WHEN_LEFT_OUT.forEach((key, field) -> {
            if (!root.has(key)) {
                leftOut.add(field);
            }
        });
        Set<String> healthLeftOut = new LinkedHashSet<>();
        for (int i = 0; i < components.size(); i++) {
            if (!root.get("components").get(yamlIndex.get(i)).has("qawk_health")) {
                healthLeftOut.add(components.get(i).componentType());
            }
        }
        return new Parsed(new SystemTypeRequest(name, systemKey, groupKey, components, rules, guard, approval),
                yamlIndex.stream().mapToInt(Integer::intValue).toArray(), List.copyOf(in.ignored), Set.copyOf(leftOut),
                Set.copyOf(healthLeftOut));
    }

    /**
     * What an import of an existing type stores: the document, with what it leaves out of Qawk's own keys kept as
     * stored, as a {@code PUT} keeps what it does not name (a Mender topology knows no rules, guard or approval, so
     * an import of one never drops them); clearing is explicit ({@code qawk_rules: []}, {@code qawk_guard: watch}).
     */
    static SystemTypeRequest keeping(Parsed parsed, SystemTypeRequest stored) {
        SystemTypeRequest r = parsed.request();
        Set<String> out = parsed.leftOut();
        Map<String, String> storedHealth = new LinkedHashMap<>();
        stored.components().forEach(c -> storedHealth.put(c.componentType(), c.health()));
        List<SystemTypeRequest.ComponentRequest> components = r.components().stream()
                .map(c -> parsed.healthLeftOut().contains(c.componentType())
                        ? new SystemTypeRequest.ComponentRequest(c.componentType(), c.match(),
                                storedHealth.get(c.componentType()))
                        : c)
                .toList();
        return new SystemTypeRequest(r.name(), r.systemKey(),
                out.contains("groupKey") ? stored.groupKey() : r.groupKey(), components,
                out.contains("rules") ? stored.rules() : r.rules(),
                out.contains("guard") ? stored.guard() : r.guard(),
                out.contains("approval") ? stored.approval() : r.approval());
    }

    private static void readComponents(YamlReading in, JsonNode list, List<SystemTypeRequest.ComponentRequest> out,
                                       List<Integer> yamlIndex) {
        if (list == null) {
            in.missing("components", "", "is required: a list of component_type entries");
            return;
        }
        if (!list.isArray()) {
            in.error("components", "must be a list of component_type entries, not " + YamlReading.describe(list));
            return;
        }
        if (list.isEmpty()) {
            in.error("components", "must hold at least one component");
            return;
        }
        Map<String, Integer> first = new LinkedHashMap<>();
        Map<String, String> matchOf = new LinkedHashMap<>();
        Map<String, String> healthOf = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "components[" + i + "]";
            JsonNode item = list.get(i);
            if (!item.isObject()) {
                in.error(at, "must be a mapping with component_type and qawk_match, not " + YamlReading.describe(item));
                continue;
            }
            in.keys(item, at, COMPONENT, COMPONENT_IGNORED, "a topology component");
            String type = in.text(item, "component_type", at, true);
            String match = in.text(item, "qawk_match", at, "is required by Qawk: the hawkBit target query that "
                    + "finds this component's devices (e.g. attribute.device_type==" + (type == null ? "device1" : type)
                    + ")");
            String health = in.text(item, "qawk_health", at, false);
            if (type == null || match == null) {
                continue;
            }
            Integer earlier = first.get(type);
            if (earlier == null) {
                first.put(type, i);
                matchOf.put(type, match);
                healthOf.put(type, health);
                out.add(new SystemTypeRequest.ComponentRequest(type, match, health));
                yamlIndex.add(i);
            } else if (!Objects.equals(healthOf.get(type), health)) {
                in.error(at + ".qawk_health", "component_type '" + type + "' is listed again with a different "
                        + "qawk_health ('" + health + "' here, '" + healthOf.get(type) + "' at components[" + earlier
                        + "]); the entries of one type are one component and must agree");
            } else if (!matchOf.get(type).equals(match)) {
                in.error(at + ".qawk_match", "component_type '" + type + "' is listed again with a different "
                        + "qawk_match ('" + match + "' here, '" + matchOf.get(type) + "' at components[" + earlier
                        + "]); Qawk treats the entries of one type as one component found by one query, so they "
                        + "must agree");
            }
        }
    }

    /** {@code qawk_rules}: a list of {@code if}, {@code then}, {@code why}; checked further by the service. */
    private static List<RuleSpec> readRules(YamlReading in, JsonNode list) {
        List<RuleSpec> out = new ArrayList<>();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            in.error("qawk_rules", "must be a list of rules (if, then, why), not " + YamlReading.describe(list));
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            String at = "qawk_rules[" + i + "]";
            JsonNode item = list.get(i);
            if (!item.isObject()) {
                in.error(at, "must be a mapping with if, then and why, not " + YamlReading.describe(item));
                continue;
            }
            in.keys(item, at, RULE, Set.of(), "a rule");
            Map<String, String> when = side(in, item.get("if"), YamlPaths.key(at, "if"));
            Map<String, String> then = side(in, item.get("then"), YamlPaths.key(at, "then"));
            String why = in.text(item, "why", at, false);
            out.add(new RuleSpec(when, then, why));
        }
        return out;
    }

    /** A rule's side: component → set pattern; null when missing (the service says so), empty when wrong (reported). */
    private static Map<String, String> side(YamlReading in, JsonNode node, String at) {
        if (node == null || node.isNull()) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (!node.isObject()) {
            in.error(at, "must be a mapping from component type to a set and version or range (e.g. { device1: "
                    + "\"app:[2.0,)\" }), not " + YamlReading.describe(node));
            return out;
        }
        node.fields().forEachRemaining(e -> {
            String value = in.text(node, e.getKey(), at, true);
            if (value != null) {
                out.put(e.getKey(), value);
            }
        });
        return out;
    }

    static String write(SystemType type) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("api_version", YamlReading.API_VERSION);
        root.put("kind", KIND);
        root.put("system_type", type.name);
        root.put("qawk_system_key", type.systemKey);
        if (type.groupKey != null) {
            root.put("qawk_group_key", type.groupKey);
        }
        var components = root.putArray("components");
        for (Component c : type.components) {
            ObjectNode entry = components.addObject().put("component_type", c.componentType).put("qawk_match", c.match);
            if (c.health != null) {
                entry.put("qawk_health", c.health);
            }
        }
        if (!type.rules.isEmpty()) {
            var rules = root.putArray("qawk_rules");
            for (RuleSpec r : type.rules) {
                ObjectNode entry = rules.addObject();
                r.when().forEach(entry.putObject("if")::put);
                r.then().forEach(entry.putObject("then")::put);
                entry.put("why", r.why());
            }
        }
        if (type.guard != GuardMode.WATCH) {
            root.put("qawk_guard", type.guard.word());
        }
        if (type.approvalRequired) {
            root.put("qawk_approval", Approval.REQUIRED.word());
        }
        return YamlWriting.write(root);
    }

    /** True when storing the request would change nothing. */
    static boolean sameAs(SystemType t, SystemTypeRequest r) {
        if (!t.name.equals(r.name()) || !t.systemKey.equals(r.systemKey())
                || !Objects.equals(t.groupKey, r.groupKey())
                || t.components.size() != r.components().size()
                || !t.rules.equals(r.rules() == null ? List.of() : r.rules())
                || t.guard != (r.guard() == null ? GuardMode.WATCH : GuardMode.parse(r.guard()).orElse(null))
                || t.approvalRequired != (r.approval() != null
                        && Approval.parse(r.approval()).orElse(null) == Approval.REQUIRED)) {
            return false;
        }
        for (int i = 0; i < t.components.size(); i++) {
            Component c = t.components.get(i);
            SystemTypeRequest.ComponentRequest rc = r.components().get(i);
            if (!c.componentType.equals(rc.componentType()) || !c.match.equals(rc.match())
                    || !Objects.equals(c.health, rc.health())) {
                return false;
            }
        }
        return true;
    }

    /** The YAML path for a field of the system type API ({@code components[0].match} → {@code components[3].qawk_match}). */
    static String yamlPath(String field, int[] yamlIndex) {
        switch (field) {
            case "name":
                return "system_type";
            case "systemKey":
                return "qawk_system_key";
            case "groupKey":
                return "qawk_group_key";
            case "guard":
                return "qawk_guard";
            case "approval":
                return "qawk_approval";
            default:
                break;
        }
        if (field.startsWith("rules")) {
            return "qawk_" + field;
        }
        Matcher m = COMPONENT_FIELD.matcher(field);
        if (!m.matches()) {
            return field;
        }
        int i = Integer.parseInt(m.group(1));
        String at = "components[" + (i < yamlIndex.length ? yamlIndex[i] : i) + "]";
        if (m.group(2) == null) {
            return at;
        }
        return at + switch (m.group(2)) {
            case "match" -> ".qawk_match";
            case "health" -> ".qawk_health";
            case "componentType" -> ".component_type";
            default -> "." + m.group(2);
        };
    }
}
