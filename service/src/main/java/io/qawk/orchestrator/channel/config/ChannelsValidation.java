package io.qawk.orchestrator.channel.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.query.TargetQuerySyntax;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and checks the channel configuration (YAML or JSON) without touching anything: every problem is collected,
 * each naming the value, e.g. {@code qawk fleets: channels[1].orchestrator.maxParallel must be ≥ 1 (got 0)}.
 * <pre>
 * channels:
 *   - name: beta                       # required, unique
 *     match: attribute.channel==beta   # required, a hawkBit target query
 *     promotesTo: prod                 # optional: a declared channel (or one that exists already)
 *     orchestrator: {maxParallel: 2, maxFailed: 0, byCentre: true, centres: [c01, c02],
 *                    verifyTimeoutSeconds: 300, soakSeconds: 600}
 *     devices: {maxFailed: 0, batchSize: 500}
 *     soakSeconds: 3600
 * </pre>
 * The limits are the API's (see {@code ChannelService}); anything not listed is refused as an unknown key.
 */
public final class ChannelsValidation {

    static final String PREFIX = "qawk fleets: ";
    private static final Set<String> ROOT_KEYS = Set.of("channels");
    private static final Set<String> CHANNEL_KEYS = Set.of("name", "match", "promotesTo", "orchestrator", "devices",
            "soakSeconds");
    private static final Set<String> ORCHESTRATOR_KEYS = Set.of("maxParallel", "maxFailed", "byCentre", "centres",
            "verifyTimeoutSeconds", "soakSeconds");
    private static final Set<String> DEVICES_KEYS = Set.of("maxFailed", "batchSize");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final List<String> problems = new ArrayList<>();

    private ChannelsValidation() {
    }

    /** Parses and validates; throws {@link InvalidChannelsException} listing every problem. */
    public static List<ChannelSpec> parse(String text, String source) {
        JsonNode root;
        try {
            root = text == null || text.isBlank() ? null : YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidChannelsException(source, List.of(PREFIX + "not valid YAML or JSON: "
                    + e.getOriginalMessage() + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")")));
        }
        return validate(root, source);
    }

    /** Validates an already parsed document (null or empty = no channels). */
    public static List<ChannelSpec> validate(JsonNode root, String source) {
        ChannelsValidation v = new ChannelsValidation();
        List<ChannelSpec> specs = v.channels(root);
        if (!v.problems.isEmpty()) {
            throw new InvalidChannelsException(source, v.problems);
        }
        return specs;
    }

    private List<ChannelSpec> channels(JsonNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            return List.of();
        }
        if (!root.isObject()) {
            problem("the document must be a mapping with a 'channels' list (got " + describe(root) + ")");
            return List.of();
        }
        unknownKeys(root, ROOT_KEYS, "");
        JsonNode list = root.get("channels");
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            problem("channels must be a list (got " + describe(list) + ")");
            return List.of();
        }
        List<ChannelSpec> specs = new ArrayList<>();
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            ChannelSpec spec = channel(list.get(i), "channels[" + i + "]", i);
            if (spec == null) {
                continue;
            }
            Integer earlier = byName.putIfAbsent(spec.name(), i);
            if (earlier != null) {
                problem("channels[" + i + "].name '" + spec.name() + "' is already declared by channels[" + earlier + "]");
                continue;
            }
            specs.add(spec);
        }
        promotions(specs);
        return specs;
    }

    private ChannelSpec channel(JsonNode node, String at, int index) {
        if (!node.isObject()) {
            problem(at + " must be a mapping with name and match (got " + describe(node) + ")");
            return null;
        }
        unknownKeys(node, CHANNEL_KEYS, at + ".");
        int before = problems.size();
        String name = text(node, "name", at, true, 128);
        if (name != null && !FieldErrors.NAME.matcher(name).matches()) {
            problem(at + ".name " + FieldErrors.NAME_RULE + " (got '" + name + "')");
        }
        String match = text(node, "match", at, true, 4000);
        if (match != null) {
            TargetQuerySyntax.problem(match).ifPresent(p -> problem(at + ".match is not a valid target query: " + p
                    + " (got '" + match + "')"));
        }
        String promotesTo = text(node, "promotesTo", at, false, 128);

        int maxParallel = ChannelSpec.DEFAULT_MAX_PARALLEL;
        int maxFailed = ChannelSpec.DEFAULT_MAX_FAILED;
        boolean byCentre = false;
        List<String> centres = new ArrayList<>();
        int verifyTimeout = ChannelSpec.DEFAULT_VERIFY_TIMEOUT_SECONDS;
        int systemSoak = ChannelSpec.DEFAULT_SYSTEM_SOAK_SECONDS;
        JsonNode o = section(node, "orchestrator", at, ORCHESTRATOR_KEYS);
        if (o != null) {
            String oa = at + ".orchestrator";
            maxParallel = integer(o, "maxParallel", oa, 1, 10_000, maxParallel);
            maxFailed = integer(o, "maxFailed", oa, 0, 1_000_000, maxFailed);
            JsonNode bc = o.get("byCentre");
            if (bc != null && !bc.isNull()) {
                if (bc.isBoolean()) {
                    byCentre = bc.booleanValue();
                } else {
                    problem(oa + ".byCentre must be true or false (got " + describe(bc) + ")");
                }
            }
            centres = centres(o.get("centres"), oa + ".centres");
            verifyTimeout = integer(o, "verifyTimeoutSeconds", oa, 1, 86_400, verifyTimeout);
            systemSoak = integer(o, "soakSeconds", oa, 0, 86_400, systemSoak);
        }
        int deviceMaxFailed = ChannelSpec.DEFAULT_DEVICE_MAX_FAILED;
        int batchSize = ChannelSpec.DEFAULT_DEVICE_BATCH_SIZE;
        JsonNode d = section(node, "devices", at, DEVICES_KEYS);
        if (d != null) {
            deviceMaxFailed = integer(d, "maxFailed", at + ".devices", 0, 1_000_000, deviceMaxFailed);
            batchSize = integer(d, "batchSize", at + ".devices", 1, 5000, batchSize);
        }
        int soak = integer(node, "soakSeconds", at, 0, 30 * 24 * 3600, ChannelSpec.DEFAULT_SOAK_SECONDS);
        if (problems.size() > before || name == null || match == null) {
            return null;
        }
        return new ChannelSpec(index, name, match, promotesTo, maxParallel, maxFailed, byCentre, List.copyOf(centres),
                deviceMaxFailed, batchSize, soak, verifyTimeout, systemSoak);
    }

    /** promotesTo: not itself, no loop among the declared channels. Undeclared targets are checked against the database. */
    private void promotions(List<ChannelSpec> specs) {
        Map<String, ChannelSpec> byName = new LinkedHashMap<>();
        specs.forEach(s -> byName.put(s.name(), s));
        for (ChannelSpec s : specs) {
            if (s.promotesTo() == null) {
                continue;
            }
            if (s.promotesTo().equals(s.name())) {
                problem("channels[" + s.index() + "].promotesTo must name another channel (got '" + s.promotesTo() + "')");
                continue;
            }
            Set<String> seen = new HashSet<>();
            List<String> path = new ArrayList<>(List.of(s.name()));
            for (ChannelSpec c = byName.get(s.promotesTo()); c != null; c = c.promotesTo() == null ? null : byName.get(c.promotesTo())) {
                path.add(c.name());
                if (c.name().equals(s.name())) {
                    problem("channels[" + s.index() + "].promotesTo makes a loop: " + String.join(" -> ", path));
                    break;
                }
                if (!seen.add(c.name())) {
                    break; // a loop that does not pass through s; reported for its own members
                }
            }
        }
    }

    private List<String> centres(JsonNode node, String at) {
        List<String> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            problem(at + " must be a list of centre names (got " + describe(node) + ")");
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode c = node.get(i);
            if (!c.isTextual() || c.textValue().isBlank()) {
                problem(at + "[" + i + "] must be a non-empty text (got " + describe(c) + ")");
            } else if (c.textValue().length() > 256) {
                problem(at + "[" + i + "] must be at most 256 characters (got " + c.textValue().length() + ")");
            } else if (!seen.add(c.textValue())) {
                problem(at + "[" + i + "] '" + c.textValue() + "' appears more than once");
            } else {
                out.add(c.textValue());
            }
        }
        return out;
    }

    private JsonNode section(JsonNode node, String key, String at, Set<String> allowed) {
        JsonNode s = node.get(key);
        if (s == null || s.isNull()) {
            return null;
        }
        if (!s.isObject()) {
            problem(at + "." + key + " must be a mapping (got " + describe(s) + ")");
            return null;
        }
        unknownKeys(s, allowed, at + "." + key + ".");
        return s;
    }

    private String text(JsonNode node, String key, String at, boolean required, int max) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                problem(at + "." + key + " is required");
            }
            return null;
        }
        if (!v.isTextual() || v.textValue().isBlank()) {
            problem(at + "." + key + " must be a non-empty text (got " + describe(v) + ")");
            return null;
        }
        if (v.textValue().length() > max) {
            problem(at + "." + key + " must be at most " + max + " characters (got " + v.textValue().length() + ")");
            return null;
        }
        return v.textValue();
    }

    private int integer(JsonNode node, String key, String at, int min, int max, int dflt) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            problem(at + "." + key + " must be a whole number between " + min + " and " + max + " (got " + describe(v) + ")");
            return dflt;
        }
        int i = v.intValue();
        if (i < min) {
            problem(at + "." + key + " must be ≥ " + min + " (got " + i + ")");
        } else if (i > max) {
            problem(at + "." + key + " must be ≤ " + max + " (got " + i + ")");
        }
        return i;
    }

    private void unknownKeys(JsonNode node, Set<String> allowed, String at) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problem(at + k + " is not a known setting (known: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private void problem(String message) {
        problems.add(PREFIX + message);
    }

    private static String describe(JsonNode v) {
        if (v.isTextual()) {
            return "'" + v.textValue() + "'";
        }
        if (v.isContainerNode()) {
            return v.isArray() ? "a list" : "a mapping";
        }
        return v.toString();
    }
}
