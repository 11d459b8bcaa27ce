package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.hawkbit.Fiql;
import io.qawk.orchestrator.systemtype.DeviceKey;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks in bulk that known devices still report the key values the inventory holds, without reading each
 * device's attributes. hawkBit's target list carries no attributes, and hawkBit 0.3.x does not even move a target's
 * {@code lastModifiedAt} when its attributes change, so the sync asks hawkBit by value instead:
 *
 * <ul>
 * <li><b>Rows.</b> Devices are bucketed by the values of every key but the first (the system key), e.g. by centre;
 * within a bucket, system-key values are packed into queries of at most one page of devices and about √(values)
 * values:
 * {@code attribute.device=in=("lane-1",…,"lane-99");attribute.centerid=="c07"}. The answer must be exactly the devices
 * expected there: one missing changed a value (or lost it, or vanished); one present but expected elsewhere moved in.
 * Only a move between two system-key values of the same row escapes a row.</li>
 * <li><b>Columns.</b> So every pair of system-key values that share a row is also put into two different queries of
 * the system key alone ({@code attribute.device=in=(…)}): values are coloured so that no two values of one row get
 * the same colour, and each colour is packed into queries of at most one page. A move between two values of one row
 * leaves the device missing from its old value's column.</li>
 * </ul>
 *
 * <p>Every query has one join per key in hawkBit (no OR of many attribute conditions, which hawkBit on H2 cannot
 * plan), stays under the URL length limit, and usually fits one page: about two requests per 500 devices plus
 * 2·√(systems), not one per device. Devices lacking a value cannot be checked this way (FIQL cannot ask for an absent
 * attribute) and are read one by one.
 */
final class AttributeCheck {

    /** One query and the checkable devices its answer must hold: no more, no fewer. */
    record Query(String fiql, Set<String> expected) {
    }

    /** The queries, every device they vouch for, and the devices that must be read one by one. */
    record Plan(List<Query> queries, Set<String> checkable, List<String> uncheckable) {

        /**
         * The checkable devices an answer shows to have changed: expected but missing, or present but expected
         * elsewhere. Devices the plan does not know are none of its business (new ones are read anyway).
         */
        Set<String> changedIn(Query query, Collection<String> answered) {
            Set<String> got = new HashSet<>(answered);
            Set<String> changed = new HashSet<>();
            for (String id : query.expected()) {
                if (!got.contains(id)) {
                    changed.add(id);
                }
            }
            for (String id : got) {
                if (checkable.contains(id) && !query.expected().contains(id)) {
                    changed.add(id);
                }
            }
            return changed;
        }
    }

    static final int PAGE = 500;

    private AttributeCheck() {
    }

    /**
     * @param keys      the keys to check, the system key first
     * @param maxLength longest query text (characters before URL encoding)
     */
    static Plan plan(List<DeviceKey> keys, Collection<DeviceRecord> devices, int maxLength) {
        if (keys.isEmpty()) {
            return new Plan(List.of(), Set.of(), devices.stream().map(DeviceRecord::controllerId).toList());
        }
        DeviceKey primary = keys.get(0);
        List<DeviceKey> others = keys.subList(1, keys.size());
        List<String> uncheckable = new ArrayList<>();
        Set<String> checkable = new HashSet<>();
        // bucket (values of the other keys) -> system-key value -> devices, all sorted for stable queries
        TreeMap<String, Bucket> buckets = new TreeMap<>();
        Map<String, List<String>> devicesOfValue = new HashMap<>();
        for (DeviceRecord d : devices) {
            String value = primary.valueIn(d.attributes(), d.metadata());
            List<String> rest = new ArrayList<>(others.size());
            for (DeviceKey k : others) {
                rest.add(k.valueIn(d.attributes(), d.metadata()));
            }
            if (value == null || rest.contains(null)) {
                uncheckable.add(d.controllerId());
                continue;
            }
            checkable.add(d.controllerId());
            buckets.computeIfAbsent(String.join("\u0000", rest), k -> new Bucket(rest)).add(value, d.controllerId());
            devicesOfValue.computeIfAbsent(value, v -> new ArrayList<>()).add(d.controllerId());
        }

        // a row of k values needs k column queries: rows of about √(values) keep rows + columns near their least
        int valuesPerRow = Math.max(1, (int) Math.ceil(Math.sqrt(devicesOfValue.size())));
        List<Query> queries = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (Bucket bucket : buckets.values()) {
            List<String> suffix = new ArrayList<>(others.size());
            for (int i = 0; i < others.size(); i++) {
                suffix.add(Fiql.eq(others.get(i).toString(), bucket.values.get(i)));
            }
            int room = maxLength - String.join(";", suffix).length() - 1;
            pack(bucket.devicesByValue, primary, room, valuesPerRow, (values, ids) -> {
                rows.add(values);
                List<String> parts = new ArrayList<>(suffix.size() + 1);
                parts.add(Fiql.in(primary.toString(), values));
                parts.addAll(suffix);
                queries.add(new Query(String.join(";", parts), ids));
            });
        }

        for (List<String> colour : colours(rows)) {
            TreeMap<String, List<String>> byValue = new TreeMap<>();
            colour.forEach(v -> byValue.put(v, devicesOfValue.get(v)));
            pack(byValue, primary, maxLength, Integer.MAX_VALUE, (values, ids) ->
                    queries.add(new Query(Fiql.in(primary.toString(), values), ids)));
        }
        return new Plan(queries, checkable, uncheckable);
    }

    /**
     * Colours the values that share a row with another value so that no two values of any row share a colour; values
     * alone in every row they are in need no column.
     */
    static List<List<String>> colours(List<List<String>> rows) {
        Map<String, List<Integer>> rowsOf = new HashMap<>();
        for (int r = 0; r < rows.size(); r++) {
            for (String v : rows.get(r)) {
                rowsOf.computeIfAbsent(v, k -> new ArrayList<>(1)).add(r);
            }
        }
        List<Set<Integer>> used = new ArrayList<>(rows.size());
        rows.forEach(r -> used.add(new HashSet<>()));
        Map<String, Integer> colourOf = new HashMap<>();
        List<List<String>> colours = new ArrayList<>();
        for (List<String> row : rows) {
            for (String v : row) {
                if (colourOf.containsKey(v) || rowsOf.get(v).stream().allMatch(r -> rows.get(r).size() == 1)) {
                    continue;
                }
                int c = 0;
                while (taken(c, rowsOf.get(v), used)) {
                    c++;
                }
                colourOf.put(v, c);
                for (int r : rowsOf.get(v)) {
                    used.get(r).add(c);
                }
                while (colours.size() <= c) {
                    colours.add(new ArrayList<>());
                }
                colours.get(c).add(v);
            }
        }
        return colours;
    }

    private static boolean taken(int colour, List<Integer> rowsOfValue, List<Set<Integer>> used) {
        for (int r : rowsOfValue) {
            if (used.get(r).contains(colour)) {
                return true;
            }
        }
        return false;
    }

    private interface Sink {
        void query(List<String> values, Set<String> devices);
    }

    /**
     * Packs values (in order) into groups of at most {@code maxValues} values and one page of devices whose value
     * list fits {@code room}.
     */
    private static void pack(TreeMap<String, List<String>> devicesByValue, DeviceKey key, int room, int maxValues,
                             Sink sink) {
        int fixed = key.toString().length() + "=in=()".length();
        List<String> values = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        int length = fixed;
        for (Map.Entry<String, List<String>> e : devicesByValue.entrySet()) {
            int add = Fiql.quote(e.getKey()).length() + 1;
            if (!values.isEmpty() && (ids.size() + e.getValue().size() > PAGE || length + add > room
                    || values.size() >= maxValues)) {
                sink.query(values, ids);
                values = new ArrayList<>();
                ids = new LinkedHashSet<>();
                length = fixed;
            }
            values.add(e.getKey());
            ids.addAll(e.getValue());
            length += add;
        }
        if (!values.isEmpty()) {
            sink.query(values, ids);
        }
    }

    private static final class Bucket {
        final List<String> values;
        final TreeMap<String, List<String>> devicesByValue = new TreeMap<>();

        Bucket(List<String> values) {
            this.values = values;
        }

        void add(String value, String controllerId) {
            devicesByValue.computeIfAbsent(value, v -> new ArrayList<>()).add(controllerId);
        }
    }
}
