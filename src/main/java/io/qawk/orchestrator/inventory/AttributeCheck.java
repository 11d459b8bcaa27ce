package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.hawkbit.Fiql;
import io.qawk.orchestrator.systemtype.DeviceKey;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks in bulk that known devices still report the key values the inventory holds, without reading each
 * device's attributes. hawkBit's target list carries no attributes, so instead of one request per device the
 * sync asks "which of these devices still have these values": devices are grouped by their expected values,
 * each group becomes {@code (key1=="v1";key2=="v2";controllerId=in=(…))}, and groups are OR-ed into queries of a
 * bounded length (URLs must stay under hawkBit's header limit) and at most 500 devices (one page). A device
 * missing from an answer changed (or vanished) and is read one by one. Devices lacking a value cannot be
 * checked this way (FIQL cannot ask for an absent attribute) and are always read.
 */
final class AttributeCheck {

    /** One query and the devices it vouches for. */
    record Query(String fiql, Set<String> devices) {
    }

    /** The queries, and the devices that must be read one by one. */
    record Plan(List<Query> queries, List<String> uncheckable) {
    }

    static final int MAX_DEVICES_PER_QUERY = 500;

    private AttributeCheck() {
    }

    /**
     * @param maxClauses value groups per query: every attribute condition costs hawkBit a join on its attribute
     *                   table, and its SQL planner (H2 in particular) slows down sharply with many joins
     */
    static Plan plan(Collection<DeviceKey> keys, Collection<DeviceRecord> devices, int maxLength, int maxClauses) {
        List<String> uncheckable = new ArrayList<>();
        Map<List<String>, List<String>> byValues = new LinkedHashMap<>();
        for (DeviceRecord d : devices) {
            List<String> values = new ArrayList<>(keys.size());
            for (DeviceKey k : keys) {
                String v = k.valueIn(d.attributes(), d.metadata());
                if (v == null) {
                    break;
                }
                values.add(v);
            }
            if (values.size() < keys.size()) {
                uncheckable.add(d.controllerId());
            } else {
                byValues.computeIfAbsent(values, v -> new ArrayList<>()).add(d.controllerId());
            }
        }
        List<DeviceKey> keyList = List.copyOf(keys);
        List<Query> queries = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        Set<String> covered = new java.util.LinkedHashSet<>();
        int clauses = 0;
        List<Map.Entry<List<String>, List<String>>> groups = new ArrayList<>(byValues.entrySet());
        groups.sort(java.util.Comparator.comparing(e -> String.join("\u0000", e.getKey())));
        for (Map.Entry<List<String>, List<String>> group : groups) {
            List<String> ids = group.getValue();
            int i = 0;
            while (i < ids.size()) {
                int room = MAX_DEVICES_PER_QUERY - covered.size();
                int take = Math.min(room, ids.size() - i);
                String clause = clause(keyList, group.getKey(), ids.subList(i, i + take));
                while (take > 1 && current.length() + clause.length() + 1 > maxLength) {
                    take = Math.max(1, take / 2);
                    clause = clause(keyList, group.getKey(), ids.subList(i, i + take));
                }
                if (current.length() > 0
                        && (current.length() + clause.length() + 1 > maxLength || room <= 0 || clauses >= maxClauses)) {
                    queries.add(new Query(current.toString(), Set.copyOf(covered)));
                    current.setLength(0);
                    covered.clear();
                    clauses = 0;
                    continue;
                }
                if (current.length() > 0) {
                    current.append(',');
                }
                current.append(clause);
                clauses++;
                covered.addAll(ids.subList(i, i + take));
                i += take;
                if (covered.size() >= MAX_DEVICES_PER_QUERY) {
                    queries.add(new Query(current.toString(), Set.copyOf(covered)));
                    current.setLength(0);
                    covered.clear();
                    clauses = 0;
                }
            }
        }
        if (current.length() > 0) {
            queries.add(new Query(current.toString(), Set.copyOf(covered)));
        }
        return new Plan(queries, uncheckable);
    }

    private static String clause(List<DeviceKey> keys, List<String> values, List<String> ids) {
        List<String> parts = new ArrayList<>(keys.size() + 1);
        for (int k = 0; k < keys.size(); k++) {
            parts.add(Fiql.eq(keys.get(k).toString(), values.get(k)));
        }
        parts.add(Fiql.in("controllerId", ids));
        return "(" + String.join(";", parts) + ")"; // atoms: Fiql quotes the values
    }
}
