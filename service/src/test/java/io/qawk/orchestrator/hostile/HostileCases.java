package io.qawk.orchestrator.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Generates hostile requests to the write endpoints from a seed: each case is one valid body with one (sometimes
 * two) mutations, or a body that is not JSON at all, or the right body with a wrong content type. The same seed
 * always gives the same cases, so a failure is reproduced by its seed and index (shown in the test name).
 */
final class HostileCases {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One request. {@code mustRefuse}: the request is invalid by construction and must get a 4xx. */
    record Case(String name, String method, String path, String contentType, byte[] body, boolean mustRefuse) {
        @Override
        public String toString() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return name + " " + method + " " + path + " [" + contentType + "] "
                    + (text.length() > 160 ? text.substring(0, 160) + "… (" + body.length + " bytes)" : text);
        }
    }

    /** Ids of real objects, so cases can use ids of other objects. */
    record Ids(long type, long otherType, long manifest, long channel, long deployment, long set) {
    }

    /** An endpoint with a valid body (a fresh one per call; {@code n} makes names unique). */
    private record Endpoint(String method, String path, String kind, Function<Integer, ObjectNode> valid) {
    }

    static final List<String> HOSTILE_STRINGS = List.of(
            "", " ", "\t\n", "\u0000", "a\u0000b", "\u202Eevil\u202C", "שלום-עולם", "مرحبا", "😀🔥💥", "e\u0301",
            "x,controllerId==*", "a;b", "(a)", "a=b", "!x", "~x", "\"quoted\"", "'single'", "*", "\\", "\\\"",
            "a,b;c(d)=e!f~g\"h'i*j\\k", "attribute.device==*", "controllerId=in=(a,b)", "%00", "%2F..%2F",
            "../../etc/passwd", "<script>alert(1)</script>", "${jndi:ldap://x/y}", "#{7*7}", "' OR '1'='1",
            "; DROP TABLE system_type; --", "\r\nX-Injected: yes", "\u2028\u2029", "\uFEFFbom", "\u0007\u001b[31m");

    /** Raw JSON string literals Jackson would not write itself (lone surrogates, escaped NUL). */
    static final List<String> RAW_STRINGS = List.of("\"\\ud800\"", "\"a\\udc00b\"", "\"\\udbff\\udfff\\ud800\"",
            "\"\\u0000\"", "\"name\\u0000\"");

    static final List<String> HOSTILE_NUMBERS = List.of("-1", "0", "-9223372036854775808", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "2147483648", "-2147483649", "99999999999999999999999999",
            "1e400", "-1e400", "1.5", "0.0000001", "1E2", "-0", "12345678901234567890123456789012345678901234567890",
            "NaN", "Infinity", "0x10", "007");

    static final List<String> CONTENT_TYPES = List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "application/octet-stream", "application/jsonx", "a/b/c", "text/html",
            "application/problem+json", "image/png");

    static final List<String> NOT_JSON = List.of("", "null", "[]", "\"just a string\"", "42", "true", "{", "}", "{\"a\":",
            "{\"name\": \"x\",}", "{'name': 'x'}", "{name: x}", "<xml><name>x</name></xml>", "name=x&match=y",
            "---\nname: x\n", "{\"name\": \"x\"} {\"name\": \"y\"}", "{\"name\": \"x\"} trailing", "\uFEFF{}",
            "{\"a\":1,\"a\":2}", "/* comment */ {}", "[{}]", "{\"\":\"\"}", "\u0000");

    private final SplittableRandom random;
    private final Ids ids;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private int counter;

    HostileCases(long seed, Ids ids) {
        this.random = new SplittableRandom(seed);
        this.ids = ids;
        jsonEndpoints();
    }

    private String unique(String stem) {
        return stem + "-" + (++counter);
    }

    private void jsonEndpoints() {
        endpoints.add(new Endpoint("POST", "/qawk/v1/systemtypes", "systemtype", n -> systemType(unique("fz-type"))));
        endpoints.add(new Endpoint("PUT", "/qawk/v1/systemtypes/" + ids.otherType(), "systemtype",
                n -> systemType("fz-other-type")));
        endpoints.add(new Endpoint("POST", "/qawk/v1/manifests", "manifest", n -> manifest(unique("fz-manifest"))));
        endpoints.add(new Endpoint("PUT", "/qawk/v1/manifests/" + ids.manifest(), "manifest", n -> manifest("fz-manifest")));
        endpoints.add(new Endpoint("POST", "/qawk/v1/systemdeployments", "deployment", n -> deployment()));
        endpoints.add(new Endpoint("POST", "/qawk/v1/fleets", "channel", n -> channel(unique("fz-fleet"))));
        endpoints.add(new Endpoint("PUT", "/qawk/v1/fleets/" + ids.channel(), "channelchange", n -> channelChange()));
        endpoints.add(new Endpoint("POST", "/qawk/v1/fleets/" + ids.channel() + "/promote", "promote",
                n -> JSON.createObjectNode().put("orchestrator", true)));
        endpoints.add(new Endpoint("POST", "/qawk/v1/systemdeployments/" + ids.deployment() + "/runs/1/rollback",
                "command", n -> JSON.createObjectNode().put("reason", "why")));
        endpoints.add(new Endpoint("POST", "/qawk/v1/systemdeployments/" + ids.deployment() + "/runs/1/retry",
                "command", n -> JSON.createObjectNode().put("reason", "why")));
    }

    ObjectNode systemType(String name) {
        ObjectNode o = JSON.createObjectNode().put("name", name).put("systemKey", "attribute.device")
                .put("groupKey", "attribute.centerid");
        ArrayNode cs = o.putArray("components");
        cs.addObject().put("componentType", "device1").put("match", "attribute.device_type==fz-device1");
        cs.addObject().put("componentType", "device2").put("match", "attribute.device_type==fz-device2");
        return o;
    }

    ObjectNode manifest(String name) {
        ObjectNode o = JSON.createObjectNode().put("name", name).put("systemTypeId", ids.type());
        o.putArray("components").addObject().put("componentType", "device1").put("distributionSetId", ids.set())
                .put("order", 1);
        return o;
    }

    private ObjectNode deployment() {
        ObjectNode o = JSON.createObjectNode().put("name", "fz-deployment").put("manifestId", ids.manifest())
                .put("maxParallel", 2).put("maxFailed", 0).put("byCentre", false).put("orderTimeoutSeconds", 60);
        o.putArray("groups").add("c01");
        o.putArray("systems").add("lane-01");
        windows(o.putObject("windows"));
        return o;
    }

    /** Maintenance windows: a default and one centre's own (issue 15). */
    private static void windows(ObjectNode w) {
        w.putObject("default").put("schedule", "0 0 22 * * ?").put("duration", "08:00").put("timezone", "Europe/London");
        w.putObject("centres").putObject("c01").put("schedule", "0 0 2 ? * MON-FRI").put("duration", "03:00")
                .put("timezone", "Europe/Berlin");
    }

    private ObjectNode channel(String name) {
        ObjectNode o = JSON.createObjectNode().put("name", name).put("match", "attribute.channel==fz");
        ObjectNode orchestrator = o.putObject("orchestrator").put("maxParallel", 1).put("maxFailed", 0).put("byCentre", false);
        orchestrator.putArray("centres").add("c01");
        windows(orchestrator.putObject("windows"));
        o.putObject("devices").put("maxFailed", 0).put("batchSize", 10);
        o.put("soakSeconds", 60);
        return o;
    }

    private ObjectNode channelChange() {
        ObjectNode o = JSON.createObjectNode().put("soakSeconds", 30);
        o.putObject("orchestrator").put("maxParallel", 2);
        return o;
    }

    /** The next case; {@code index} only names it. */
    Case next(int index) {
        int pick = random.nextInt(100);
        if (pick < 8) {
            return notJson(index);
        }
        if (pick < 14) {
            return wrongContentType(index);
        }
        if (pick < 22) {
            return hostilePath(index);
        }
        if (pick < 32) {
            return yaml(index);
        }
        return mutatedJson(index);
    }

    private <T> T pick(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private Endpoint endpoint() {
        return pick(endpoints);
    }

    private Case notJson(int index) {
        Endpoint e = endpoint();
        String body = pick(NOT_JSON);
        byte[] bytes = random.nextInt(5) == 0 ? randomBytes() : body.getBytes(StandardCharsets.UTF_8);
        // a JSON literal such as null or [] is refused by every endpoint but the optional-body commands
        boolean optionalBody = e.kind().equals("command") || e.kind().equals("promote");
        // ... and an empty object (with or without a byte order mark) is a valid no-op change: a PUT keeps what it
        // leaves out (issue 56)
        boolean emptyObject = body.equals("\uFEFF{}") && (optionalBody || e.method().equals("PUT"));
        return new Case(index + " not-json", e.method(), e.path(), "application/json", bytes,
                !(optionalBody && (body.equals("null") || body.isEmpty())) && !emptyObject);
    }

    private byte[] randomBytes() {
        byte[] b = new byte[1 + random.nextInt(300)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        b[0] = (byte) 0xC3; // never valid JSON: a lone UTF-8 lead byte first
        b[b.length - 1] = (byte) 0xFF;
        return b;
    }

    private Case wrongContentType(int index) {
        Endpoint e = endpoint();
        String type = pick(CONTENT_TYPES);
        return new Case(index + " content-type", e.method(), e.path(), type,
                e.valid().apply(index).toString().getBytes(StandardCharsets.UTF_8), true);
    }

    /** Path ids that are not ids, ids of other kinds of objects, and state commands that are not allowed now. */
    private Case hostilePath(int index) {
        // "n;2" is id n with a matrix parameter: n must be an id nothing has, or it reaches a real object
        List<String> badIds = List.of("-1", "0", "9223372036854775808", "99999999999999999999999", "abc", "1.5",
                "%00", "%2E%2E", (ids.type() + 2_000_000) + ";2", "1,2", "1%20OR%201=1", "%F0%9F%98%80", "1e3", "0x1", "%27", "*",
                String.valueOf(ids.type() + 1_000_000), String.valueOf(Long.MAX_VALUE));
        String id = pick(badIds);
        List<String[]> templates = List.of(
                new String[]{"PUT", "/qawk/v1/systemtypes/%s", "systemtype"},
                new String[]{"DELETE", "/qawk/v1/systemtypes/%s", ""},
                new String[]{"PUT", "/qawk/v1/manifests/%s", "manifest"},
                new String[]{"DELETE", "/qawk/v1/manifests/%s", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/%s/start", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/%s/pause", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/%s/resume", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/%s/abort", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/" + ids.deployment() + "/runs/%s/rollback", "command"},
                new String[]{"POST", "/qawk/v1/systemdeployments/%s/runs/1/retry", "command"},
                new String[]{"PUT", "/qawk/v1/fleets/%s", "channel"},
                new String[]{"DELETE", "/qawk/v1/fleets/%s", ""},
                new String[]{"POST", "/qawk/v1/fleets/%s/resume", ""},
                new String[]{"POST", "/qawk/v1/fleets/%s/promote", "promote"},
                new String[]{"POST", "/qawk/v1/systemtypes/%s/systems/device-07/mend", ""},
                new String[]{"POST", "/qawk/v1/systemtypes/" + ids.type() + "/systems/%s/mend", ""},
                // real objects, commands not allowed in their state or while in use
                new String[]{"DELETE", "/qawk/v1/systemtypes/" + ids.type(), ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/" + ids.deployment() + "/pause", ""},
                new String[]{"POST", "/qawk/v1/systemdeployments/" + ids.deployment() + "/resume", ""},
                new String[]{"POST", "/qawk/v1/fleets/" + ids.channel() + "/resume", ""},
                new String[]{"POST", "/qawk/v1/fleets/" + ids.channel() + "/promote", "promote"});
        String[] t = pick(templates);
        String path = t[1].replace("%s", id);
        String body = switch (t[2]) {
            case "systemtype" -> systemType(unique("fz-path")).toString();
            case "manifest" -> manifest(unique("fz-path")).toString();
            case "channel" -> channelChange().toString();
            case "promote" -> "{\"orchestrator\": false}";
            case "command" -> "{\"reason\": \"" + index + "\"}";
            default -> null;
        };
        return new Case(index + " path", t[0], path, body == null ? null : "application/json",
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), true);
    }

    private Case yaml(int index) {
        boolean topology = random.nextBoolean();
        String path = topology ? "/qawk/v1/systemtypes/import" : "/qawk/v1/manifests/import";
        String name = pick(HOSTILE_STRINGS);
        String quoted = "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"").replace("\u0000", "\\0")
                .replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + "\"";
        List<String> docs = new ArrayList<>();
        String topo = "api_version: mender/v1\nkind: topology\nsystem_type: %s\nqawk_system_key: %s\n"
                + "components:\n  - component_type: %s\n    qawk_match: %s\n";
        String mani = "api_version: mender/v1\nkind: manifest\nname: %s\nsystem_types_compatible:\n  - %s\n"
                + "component_types:\n  %s:\n    artifact_name: %s\n    update_strategy:\n      order: %s\n";
        if (topology) {
            docs.add(String.format(topo, quoted, "attribute.device", "device1", "attribute.device_type==fz-y"));
            docs.add(String.format(topo, "fz-yaml", quoted, "device1", "attribute.device_type==fz-y"));
            docs.add(String.format(topo, "fz-yaml", "attribute.device", quoted, "attribute.device_type==fz-y"));
            docs.add(String.format(topo, "fz-yaml", "attribute.device", "device1", quoted));
            docs.add(String.format(topo, "fz-yaml", "attribute.device", "device1", "attribute.x==" + quoted));
            docs.add(String.format(topo, "fz-yaml", "attribute.device", "device1", "attribute.device_type==fz-y")
                    + "qawk_group_key: " + pick(HOSTILE_NUMBERS) + "\n");
            docs.add(String.format(topo, "fz-yaml", "attribute.device", "device1", "attribute.device_type==fz-y")
                    + "  - component_type: device1\n    qawk_match: attribute.device_type==other\n");
        } else {
            docs.add(String.format(mani, quoted, "fz-base-type", "device1", "fz-set:1", "1"));
            docs.add(String.format(mani, "fz-yaml-m", quoted, "device1", "fz-set:1", "1"));
            docs.add(String.format(mani, "fz-yaml-m", "fz-base-type", quoted, "fz-set:1", "1"));
            docs.add(String.format(mani, "fz-yaml-m", "fz-base-type", "device1", quoted, "1"));
            docs.add(String.format(mani, "fz-yaml-m", "fz-base-type", "device1", "fz-set:1", pick(HOSTILE_NUMBERS)));
            docs.add(String.format(mani, "fz-yaml-m", "[fz-base-type, other]", "device1", "fz-set:1", "1"));
            docs.add(String.format(mani, "fz-yaml-m", "fz-base-type", "device1", "fz-set:1", "1")
                    .replace("kind: manifest", "kind: " + quoted));
        }
        docs.add("a: &a [*a]\n");
        docs.add("x: " + "[".repeat(200) + "]".repeat(200) + "\n");
        docs.add("lol: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n");
        docs.add("name: x\nname: y\n");
        docs.add("!!java.net.URL [\"http://127.0.0.1:9/\"]\n");
        docs.add("---\nname: a\n---\nname: b\n");
        docs.add("\t name: x\n");
        docs.add("name: " + "n".repeat(300_000) + "\n");
        docs.add("{\"name\": " + quoted + "}");
        String doc = pick(docs);
        // all documents are wrong somewhere, except the first ones with a name that happens to be legal
        boolean mustRefuse = !(doc.equals(docs.get(0)) && looksLikeValidName(name));
        String type = random.nextInt(8) == 0 ? pick(CONTENT_TYPES) : pick(List.of("application/yaml", "text/yaml",
                "application/x-yaml", "text/x-yaml; charset=utf-8"));
        return new Case(index + " yaml", "POST", path, type, doc.getBytes(StandardCharsets.UTF_8), mustRefuse);
    }

    private static boolean looksLikeValidName(String s) {
        return s.matches("[\\p{L}\\p{N}][\\p{L}\\p{N} _.:\\-]{0,127}");
    }

    private Case mutatedJson(int index) {
        Endpoint e = endpoint();
        ObjectNode body = e.valid().apply(index);
        List<String> raws = new ArrayList<>();
        String what = mutate(body, e.kind(), e.method(), raws);
        String text = body.toString();
        for (int i = 0; i < raws.size(); i++) {
            text = text.replace("\"@@RAW" + i + "@@\"", raws.get(i));
        }
        boolean refuse = !what.startsWith("maybe:");
        return new Case(index + " " + what, e.method(), e.path(), "application/json",
                text.getBytes(StandardCharsets.UTF_8), refuse);
    }

    /** All (path, node) leaves and containers of the body, to pick a spot. */
    private static void spots(JsonNode node, String at, List<Map.Entry<String, JsonNode>> out) {
        out.add(Map.entry(at, node));
        if (node.isObject()) {
            node.fields().forEachRemaining(f -> spots(f.getValue(), at + "." + f.getKey(), out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                spots(node.get(i), at + "[" + i + "]", out);
            }
        }
    }

    private String mutate(ObjectNode body, String kind, String method, List<String> raws) {
        List<Map.Entry<String, JsonNode>> all = new ArrayList<>();
        spots(body, "$", all);
        List<Map.Entry<String, JsonNode>> objects = all.stream().filter(s -> s.getValue().isObject()).toList();
        Map.Entry<String, JsonNode> spot = pick(objects);
        ObjectNode target = (ObjectNode) spot.getValue();
        List<String> fields = new ArrayList<>();
        target.fieldNames().forEachRemaining(fields::add);
        int m = random.nextInt(10);
        switch (m) {
            case 0 -> { // an extra field, often with a hostile name
                String name = random.nextBoolean() ? pick(HOSTILE_STRINGS) + "x" : "colour";
                target.put(name, "red");
                return "extra-field";
            }
            case 1 -> { // a field with the wrong type
                if (fields.isEmpty()) {
                    target.put("unknown", 1);
                    return "extra-field";
                }
                String f = pick(fields);
                JsonNode old = target.get(f);
                List<JsonNode> wrong = new ArrayList<>(List.of(JSON.createObjectNode().put("x", 1),
                        JSON.createArrayNode().add(1), JSON.getNodeFactory().booleanNode(true),
                        JSON.getNodeFactory().numberNode(7), JSON.getNodeFactory().textNode("7")));
                wrong.removeIf(w -> w.getNodeType() == old.getNodeType());
                target.set(f, pick(wrong));
                return "wrong-type " + spot.getKey() + "." + f;
            }
            case 2 -> { // a required field missing (or nulled)
                String f = required(kind, spot.getKey());
                if (f == null) {
                    target.put("unexpected", true);
                    return "extra-field";
                }
                if (random.nextBoolean()) {
                    target.remove(f);
                    // a PUT keeps what it leaves out (issue 56): the stored value stands in, so it may be accepted
                    return (method.equals("PUT") ? "maybe: left out " : "missing ") + f;
                }
                target.putNull(f);
                return "missing " + f;
            }
            case 3 -> { // a hostile string in a text field (may be a legal value: then it may be accepted)
                List<String> texts = fields.stream().filter(f -> target.get(f).isTextual()).toList();
                if (texts.isEmpty()) {
                    target.put("x", "y");
                    return "extra-field";
                }
                String f = pick(texts);
                String value = pick(HOSTILE_STRINGS);
                target.put(f, target.get(f).asText() + value);
                return "maybe: hostile-text " + f;
            }
            case 4 -> { // a lone surrogate or escaped NUL in a text field
                List<String> texts = fields.stream().filter(f -> target.get(f).isTextual()).toList();
                String f = texts.isEmpty() ? "name" : pick(texts);
                raws.add(pick(RAW_STRINGS));
                target.put(f, "@@RAW" + (raws.size() - 1) + "@@");
                return "bad-unicode " + f;
            }
            case 5 -> { // a hostile number in a number field (or where text belongs)
                List<String> numbers = fields.stream().filter(f -> target.get(f).isNumber()).toList();
                String f = numbers.isEmpty() ? (fields.isEmpty() ? "n" : pick(fields)) : pick(numbers);
                String n = pick(HOSTILE_NUMBERS);
                raws.add(n);
                target.put(f, "@@RAW" + (raws.size() - 1) + "@@");
                // some numbers are legal for some fields (e.g. 0 failures allowed): then acceptance is fine
                return (numbers.isEmpty() ? "" : "maybe: ") + "number " + f + "=" + n;
            }
            case 6 -> { // a huge string
                List<String> texts = fields.stream().filter(f -> target.get(f).isTextual()).toList();
                String f = texts.isEmpty() ? "name" : pick(texts);
                int len = pick(List.of(257, 1025, 70_000, 400_000));
                target.put(f, "x".repeat(len));
                return "huge-string " + f + "(" + len + ")";
            }
            case 7 -> { // a huge array
                ArrayNode arr = JSON.createArrayNode();
                int len = pick(List.of(1001, 5_000, 60_000));
                for (int i = 0; i < len; i++) {
                    arr.add(kind.equals("deployment") ? JSON.getNodeFactory().textNode("s" + i)
                            : JSON.createObjectNode().put("componentType", "c" + i).put("match", "attribute.a==" + i));
                }
                String f = kind.equals("deployment") ? pick(List.of("groups", "systems")) : "components";
                body.set(f, arr);
                return "huge-array " + f + "(" + len + ")";
            }
            case 8 -> { // deep nesting
                int depth = pick(List.of(600, 1500, 5000));
                raws.add("[".repeat(depth) + "]".repeat(depth));
                String f = fields.isEmpty() ? "deep" : pick(fields);
                target.put(f, "@@RAW" + (raws.size() - 1) + "@@");
                return "deep-nesting " + f + "(" + depth + ")";
            }
            default -> { // the id of an object of another kind (or one that does not exist)
                List<String> idFields = List.of("systemTypeId", "distributionSetId", "manifestId", "promotesTo", "fleetId");
                for (Map.Entry<String, JsonNode> s : all) {
                    if (s.getValue().isObject()) {
                        for (String f : idFields) {
                            if (s.getValue().has(f)) {
                                long wrong = pick(List.of(ids.channel() + 100_000, ids.deployment() + 100_000, -ids.type(),
                                        ids.set() + 1_000_000));
                                ((ObjectNode) s.getValue()).put(f, wrong);
                                return "foreign-id " + f + "=" + wrong;
                            }
                        }
                    }
                }
                if (kind.equals("channel")) {
                    body.put("promotesTo", ids.deployment() + 100_000);
                    return "foreign-id promotesTo";
                }
                body.put("name", 12);
                return "wrong-type name";
            }
        }
    }

    /** A required field of the object at {@code at} of a body of this kind; null when it has none. */
    private static String required(String kind, String at) {
        boolean top = at.equals("$");
        return switch (kind) {
            case "systemtype" -> top ? "name" : at.startsWith("$.components") ? "componentType" : null;
            case "manifest" -> top ? "systemTypeId" : at.startsWith("$.components") ? "distributionSetId" : null;
            case "deployment" -> top ? "manifestId" : null;
            case "channel" -> top ? "match" : null;
            default -> null;
        };
    }
}
