package io.qawk.orchestrator.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Mender manifest in Qawk's dialect, read into its parts (resolved against the database and hawkBit later) and
 * written from a manifest.
 * <pre>
 * api_version: mender/v1
 * kind: manifest
 * name: device-system-2.0
 * system_types_compatible: [device-system]
 * component_types:
 *   device2:
 *     artifact_name: device2-fw:2.0      # a distribution set: name:version, or name alone for its newest
 *     update_strategy: { order: 1 }      # left out: order 1, or (left out everywhere) what the type's rules imply
 *     qawk_verify: attribute.fw==2.0     # optional: what the device must report once it installed it
 * </pre>
 */
final class ManifestYaml {

    static final String KIND = "manifest";
    static final int MIN_ORDER = 1;
    static final int MAX_ORDER = 1000;
    private static final Set<String> TOP = new LinkedHashSet<>(List.of("api_version", "kind", "name",
            "system_types_compatible", "component_types"));
    private static final Set<String> COMPONENT = new LinkedHashSet<>(List.of("artifact_name", "update_strategy",
            "qawk_verify"));
    private static final Set<String> COMPONENT_IGNORED = Set.of("artifact_path");
    private static final Set<String> STRATEGY = Set.of("order");
    private static final Pattern COMPONENT_FIELD = Pattern.compile("components\\[(\\d+)\\](?:\\.(\\w+))?");

    /** One entry of {@code component_types}; {@code order} null when it gives none. */
    record Component(String componentType, String artifactName, Integer order, String verify, String path) {
    }

    /** What the document says, before anything is looked up. */
    record Parsed(String name, String systemType, List<Component> components, List<String> ignored) {
    }

    private ManifestYaml() {
    }

    static Parsed read(YamlDocument doc) {
        YamlReading in = new YamlReading(doc);
        in.header(KIND, "/qawk/v1/systemtypes/import");
        in.errors.throwIfAny();
        JsonNode root = doc.root();
        in.keys(root, "", TOP, Set.of(), "a manifest");
        String name = in.text(root, "name", "", true);
        String systemType = systemType(in, root.get("system_types_compatible"));
        List<Component> components = components(in, root.get("component_types"));
        in.errors.throwIfAny();
        return new Parsed(name, systemType, components, List.copyOf(in.ignored));
    }

    private static String systemType(YamlReading in, JsonNode list) {
        String at = "system_types_compatible";
        if (list == null) {
            in.missing(at, "", "is required: a list naming the one system type (topology) this manifest is for");
            return null;
        }
        if (!list.isArray()) {
            in.error(at, "must be a list naming one system type (e.g. [device-system]), not "
                    + YamlReading.describe(list));
            return null;
        }
        if (list.isEmpty()) {
            in.error(at, "must name the system type this manifest is for");
            return null;
        }
        if (list.size() > 1) {
            in.error(at, "names " + list.size() + " system types; a Qawk manifest is for exactly one (its "
                    + "components and orders belong to that type): write one manifest per system type");
            return null;
        }
        JsonNode only = list.get(0);
        if (!only.isTextual() || only.asText().isBlank()) {
            in.error(at + "[0]", "must be the name of a system type, not " + YamlReading.describe(only));
            return null;
        }
        return only.asText();
    }

    private static List<Component> components(YamlReading in, JsonNode map) {
        String at = "component_types";
        List<Component> out = new ArrayList<>();
        if (map == null) {
            in.missing(at, "", "is required: a mapping from component type to artifact_name and update_strategy");
            return out;
        }
        if (!map.isObject()) {
            in.error(at, "must be a mapping from component type to its artifact_name and update_strategy, not "
                    + YamlReading.describe(map));
            return out;
        }
        if (map.isEmpty()) {
            in.error(at, "must hold at least one component type");
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> entries = map.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> e = entries.next();
            String path = YamlPaths.key(at, e.getKey());
            JsonNode c = e.getValue();
            if (!c.isObject()) {
                in.error(path, "must be a mapping with artifact_name (and update_strategy), not "
                        + YamlReading.describe(c));
                continue;
            }
            in.keys(c, path, COMPONENT, COMPONENT_IGNORED, "a manifest component");
            String artifact = in.text(c, "artifact_name", path, c.has("artifact_path")
                    ? "is required: Qawk installs distribution sets from hawkBit, so artifact_path (a file) "
                    + "cannot stand in for it"
                    : "is required: the distribution set, name:version or a name alone for its newest version");
            boolean given = c.hasNonNull("update_strategy") && (!c.get("update_strategy").isObject()
                    || c.get("update_strategy").hasNonNull("order"));
            Integer order = order(in, c.get("update_strategy"), YamlPaths.key(path, "update_strategy"));
            String verify = in.text(c, "qawk_verify", path, false);
            if (artifact != null && order != null) {
                order = given ? order : null;
                out.add(new Component(e.getKey(), artifact.strip(), order, verify, path));
            }
        }
        return out;
    }

    /** The order of {@code update_strategy}; 1 when there is none; null when wrong (reported). */
    private static Integer order(YamlReading in, JsonNode strategy, String path) {
        if (strategy == null || strategy.isNull()) {
            return MIN_ORDER;
        }
        if (!strategy.isObject()) {
            in.error(path, "must be a mapping such as { order: 1 }, not " + YamlReading.describe(strategy));
            return null;
        }
        in.keys(strategy, path, STRATEGY, Set.of(), "update_strategy");
        JsonNode order = strategy.get("order");
        String at = YamlPaths.key(path, "order");
        if (order == null || order.isNull()) {
            return MIN_ORDER;
        }
        if (!order.isIntegralNumber()) {
            in.error(at, "must be a whole number from " + MIN_ORDER + " to " + MAX_ORDER + ", not "
                    + YamlReading.describe(order));
            return null;
        }
        if (!order.canConvertToInt() || order.asInt() < MIN_ORDER || order.asInt() > MAX_ORDER) {
            in.error(at, "must be between " + MIN_ORDER + " and " + MAX_ORDER + " (got " + order.asText() + ")");
            return null;
        }
        return order.asInt();
    }

    static String write(Manifest m, String systemTypeName) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("api_version", YamlReading.API_VERSION);
        root.put("kind", KIND);
        root.put("name", m.name);
        root.putArray("system_types_compatible").add(systemTypeName);
        ObjectNode components = root.putObject("component_types");
        for (ManifestComponent c : m.components) {
            ObjectNode entry = components.putObject(c.componentType);
            entry.put("artifact_name", c.distributionSet);
            entry.putObject("update_strategy").put("order", c.order);
            if (c.verify != null) {
                entry.put("qawk_verify", c.verify);
            }
        }
        return YamlWriting.write(root);
    }

    /** The YAML path for a field of the manifest API ({@code components[1].order} → {@code component_types.x.update_strategy.order}). */
    static String yamlPath(String field, List<Component> components) {
        switch (field) {
            case "name":
                return "name";
            case "systemTypeId":
                return "system_types_compatible[0]";
            case "components":
                return "component_types";
            default:
                break;
        }
        Matcher m = COMPONENT_FIELD.matcher(field);
        if (!m.matches() || Integer.parseInt(m.group(1)) >= components.size()) {
            return field;
        }
        String at = components.get(Integer.parseInt(m.group(1))).path();
        if (m.group(2) == null || "componentType".equals(m.group(2))) {
            return at;
        }
        return switch (m.group(2)) {
            case "distributionSetId" -> at + ".artifact_name";
            case "order" -> at + ".update_strategy.order";
            case "verify" -> at + ".qawk_verify";
            default -> at + "." + m.group(2);
        };
    }
}
