package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Where two evidence records differ, as paths operators read ({@code systems[1].devices[0].actionId: recorded 812, now
 * 1812}), at most {@link #MAX} of them; the parts that picture their moment ({@link EvidenceBuilder#OF_THEIR_MOMENT})
 * left out. Pure.
 */
public final class RecordDifferences {

    static final int MAX = 20;

    private RecordDifferences() {
    }

    /** The differences of {@code now} from {@code recorded}, in the order of the record. */
    public static List<String> of(JsonNode recorded, JsonNode now) {
        List<String> out = new ArrayList<>();
        into("", recorded, now, out);
        return out;
    }

    /**
     * The differences of {@code now} from {@code recorded}, a part of the record at {@code path} ({@code systems[3]};
     * empty: the whole), added to {@code out} until it holds {@link #MAX}.
     */
    public static void into(String path, JsonNode recorded, JsonNode now, List<String> out) {
        if (out.size() < MAX) {
            walk(path, withoutMoment(recorded), withoutMoment(now), out);
        }
    }

    private static JsonNode withoutMoment(JsonNode record) {
        JsonNode copy = record.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove(EvidenceBuilder.OF_THEIR_MOMENT);
            o.remove("digest");
        }
        node.forEach(RecordDifferences::strip);
    }

    private static void walk(String path, JsonNode a, JsonNode b, List<String> out) {
        if (out.size() >= MAX || a.equals(b)) {
            return;
        }
        if (a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0) {
            return; // read back from the stored text (an int) or built from a row (a long): the same number
        }
        if (a.isObject() && b.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                walk(path.isEmpty() ? n : path + "." + n, a.path(n), b.path(n), out);
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                walk(path + "[" + i + "]", a.get(i), b.get(i), out);
            }
        } else if (a.isArray() && b.isArray()) {
            out.add(path + ": recorded " + a.size() + " entries, now " + b.size());
        } else {
            out.add((path.isEmpty() ? "the record" : path) + ": recorded " + shown(a) + ", now " + shown(b));
        }
    }

    private static String shown(JsonNode n) {
        if (n.isMissingNode()) {
            return "nothing";
        }
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 79) + "…" : s;
    }
}
