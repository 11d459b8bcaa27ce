package io.qawk.orchestrator.testkit.scale;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import io.qawk.orchestrator.testkit.scale.Entities.Target;
import io.qawk.orchestrator.query.Rsql;

/**
 * {@code GET /targets}: which targets a FIQL query matches and in which order, with hawkBit's field names. Exact
 * controller ids and attribute values are looked up (as a database answers them from an index) instead of scanning
 * every target; answers that do not depend on the time are cached per store version. Called under the read lock.
 */
final class TargetSearch {

    static final Set<String> FIELDS = Set.of("id", "controllerid", "name", "description", "updatestatus",
            "attribute", "metadata", "tag", "installedds.name", "installedds.version", "assignedds.name",
            "assignedds.version", "lastcontrollerrequestat", "lastmodifiedat", "createdat", "ipaddress");
    private static final Set<String> SORT_FIELDS = Set.of("id", "controllerid", "name", "createdat",
            "lastmodifiedat", "updatestatus", "lastcontrollerrequestat");

    private record CachedList(long version, List<Target> list) {
    }

    /** attribute key -> upper-cased value -> targets, valid for one store version. */
    private record AttributeIndex(long version, Map<String, Map<String, List<Target>>> byKey) {
    }

    private final TargetStore store;
    private final Settings settings;
    private final Map<String, CachedList> cache = new ConcurrentHashMap<>();
    private volatile AttributeIndex attributeIndex = new AttributeIndex(-1, Map.of());

    TargetSearch(TargetStore store, Settings settings) {
        this.store = store;
        this.settings = settings;
    }

    /** The targets {@code query}'s {@code q} matches, sorted by its {@code sort} (default: creation order). */
    List<Target> matching(Map<String, String> query) {
        String q = query.get("q");
        String sort = query.get("sort");
        Comparator<Target> order = order(sort);
        Rsql.Node node = QueryParams.filter(query, FIELDS, "target");
        String key = q + "\u0000" + sort;
        boolean timeDependent = q != null && q.toLowerCase(Locale.ROOT).contains("lastcontrollerrequestat")
                || sort != null && sort.toLowerCase(Locale.ROOT).contains("lastcontrollerrequestat");
        List<String> direct = node == null ? null : directIds(node);
        long version = store.version();
        if (direct == null && !timeDependent) {
            CachedList cached = cache.get(key);
            if (cached != null && cached.version == version) {
                return cached.list;
            }
        }
        long now = settings.now();
        Predicate<Target> test = node == null ? t -> true
                : t -> RsqlEvaluator.matches(node, c -> comparison(t, c, now));
        List<Target> out = new ArrayList<>();
        if (direct != null) {
            Set<Target> seen = new LinkedHashSet<>();
            for (String id : direct) {
                Target t = store.targetsLower.get(id.toLowerCase(Locale.ROOT));
                if (t != null && seen.add(t) && test.test(t)) {
                    out.add(t);
                }
            }
        } else {
            List<Target> byValue = node == null ? null : attributeCandidates(node);
            Set<Target> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Target t : byValue != null ? byValue : store.targets.values()) {
                if ((byValue == null || seen.add(t)) && test.test(t)) {
                    out.add(t);
                }
            }
        }
        out.sort(order != null ? order : Comparator.comparingLong(t -> t.seq));
        List<Target> result = Collections.unmodifiableList(out);
        if (direct == null && !timeDependent) {
            if (cache.size() > 64) {
                cache.clear();
            }
            cache.put(key, new CachedList(version, result));
        }
        return result;
    }

    /**
     * Targets that may match a query restricted by exact attribute values ({@code attribute.x=in=(…)} or
     * {@code attribute.x==v} without wildcard, possibly AND-ed with more), from an index per attribute key; null when
     * the query is not restricted that way. Still a superset: the caller tests every candidate.
     */
    private List<Target> attributeCandidates(Rsql.Node node) {
        return restriction(node, c -> {
            String f = RsqlEvaluator.normalise(c.selector());
            if (!f.startsWith("attribute.") || !exact(c)) {
                return null;
            }
            Map<String, List<Target>> byValue = attributeValues(f.substring("attribute.".length()));
            List<Target> out = new ArrayList<>();
            for (String v : c.values()) {
                out.addAll(byValue.getOrDefault(v.toUpperCase(Locale.ROOT), List.of()));
            }
            return out;
        });
    }

    /** {@code =in=}, or {@code ==} without wildcard: the values are exact. */
    private static boolean exact(Rsql.Comparison c) {
        return c.operator().equals("=in=") || c.operator().equals("==") && c.values().get(0).indexOf('*') < 0;
    }

    /**
     * What a query is restricted to, from what {@code leaf} says of single comparisons (null: not restricted): the
     * first restricted part of an AND, the union of an OR whose every branch is restricted.
     */
    private static <T> List<T> restriction(Rsql.Node node, Function<Rsql.Comparison, List<T>> leaf) {
        if (node instanceof Rsql.Comparison c) {
            return leaf.apply(c);
        }
        if (node instanceof Rsql.And a) {
            for (Rsql.Node child : a.children()) {
                List<T> r = restriction(child, leaf);
                if (r != null) {
                    return r;
                }
            }
        }
        if (node instanceof Rsql.Or o) {
            List<T> union = new ArrayList<>();
            for (Rsql.Node child : o.children()) {
                List<T> r = restriction(child, leaf);
                if (r == null) {
                    return null; // one branch is not restricted: scan everything
                }
                union.addAll(r);
            }
            return union;
        }
        return null;
    }

    private synchronized Map<String, List<Target>> attributeValues(String key) {
        AttributeIndex index = attributeIndex;
        if (index.version() != store.version()) {
            index = new AttributeIndex(store.version(), new ConcurrentHashMap<>());
            attributeIndex = index;
        }
        return index.byKey().computeIfAbsent(key, k -> {
            Map<String, List<Target>> byValue = new HashMap<>();
            for (Target t : store.targets.values()) {
                String v = t.attributes.get(k);
                if (v != null) {
                    byValue.computeIfAbsent(v.toUpperCase(Locale.ROOT), x -> new ArrayList<>(4)).add(t);
                }
            }
            return byValue;
        });
    }

    /** Controller ids a query is restricted to ({@code controllerId==x} without wildcard, {@code =in=}), if any. */
    private static List<String> directIds(Rsql.Node node) {
        return restriction(node, c -> {
            String f = RsqlEvaluator.normalise(c.selector());
            if (!f.equals("controllerid") && !f.equals("id")) {
                return null;
            }
            return exact(c) ? c.values() : null;
        });
    }

    private boolean comparison(Target t, Rsql.Comparison c, long now) {
        String f = RsqlEvaluator.normalise(c.selector());
        if (f.startsWith("attribute.")) {
            return RsqlEvaluator.compare(t.attributes.get(f.substring(10)), c);
        }
        if (f.startsWith("metadata.")) {
            return RsqlEvaluator.compare(t.metadata.get(f.substring(9)), c);
        }
        if (f.equals("tag")) {
            boolean negative = c.operator().equals("!=") || c.operator().equals("=out=");
            if (t.tags.isEmpty()) {
                return RsqlEvaluator.compare(null, c);
            }
            return negative ? t.tags.stream().allMatch(tag -> RsqlEvaluator.compare(tag, c))
                    : t.tags.stream().anyMatch(tag -> RsqlEvaluator.compare(tag, c));
        }
        return RsqlEvaluator.compare(field(t, f, now), c);
    }

    private String field(Target t, String f, long now) {
        switch (f) {
            case "id":
            case "controllerid":
                return t.id;
            case "name":
                return t.name;
            case "description":
                return null;
            case "ipaddress":
                return "127.0.0.1";
            case "updatestatus":
                return t.updateStatus;
            case "installedds.name":
                return t.installed == null ? null : t.installed.name;
            case "installedds.version":
                return t.installed == null ? null : t.installed.version;
            case "assignedds.name":
                return t.assigned == null ? null : t.assigned.name;
            case "assignedds.version":
                return t.assigned == null ? null : t.assigned.version;
            case "lastcontrollerrequestat":
                long last = lastRequest(t, now);
                return last == 0 ? null : String.valueOf(last);
            case "lastmodifiedat":
                return String.valueOf(t.lastModifiedAt);
            case "createdat":
                return String.valueOf(t.createdAt);
            default:
                throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlInvalidField", "unknown field " + f);
        }
    }

    /** When the device last polled: its own activity, or its last periodic poll when devices poll. */
    long lastRequest(Target t, long now) {
        Duration every = settings.pollInterval;
        if (every == null || every.isZero()) {
            return t.lastRequestAt;
        }
        long interval = every.toMillis();
        long phase = Math.floorMod(t.seq * 7919L, interval);
        long tick = now - Math.floorMod(now - phase, interval);
        return Math.max(t.lastRequestAt, tick);
    }

    private Comparator<Target> order(String sort) {
        if (sort == null || sort.isBlank()) {
            return null;
        }
        long now = settings.now();
        Comparator<Target> out = null;
        for (String part : sort.split(",")) {
            String[] fd = part.trim().split(":");
            String field = fd[0].trim().toLowerCase(Locale.ROOT);
            if (!SORT_FIELDS.contains(field) || fd.length > 1 && !fd[1].trim().matches("(?i)ASC|DESC")) {
                throw HttpError.badRequest("hawkbit.server.error.rest.param.sortParamInvalidField",
                        "The given sort parameter field {" + fd[0] + "} does not exist, must be one of " + SORT_FIELDS);
            }
            Comparator<Target> c;
            switch (field) {
                case "id":
                case "controllerid":
                    c = Comparator.comparing(t -> t.id);
                    break;
                case "name":
                    c = Comparator.comparing(t -> t.name);
                    break;
                case "createdat":
                    c = Comparator.comparingLong(t -> t.createdAt);
                    break;
                case "lastmodifiedat":
                    c = Comparator.comparingLong(t -> t.lastModifiedAt);
                    break;
                case "updatestatus":
                    c = Comparator.comparing(t -> t.updateStatus);
                    break;
                default:
                    c = Comparator.comparingLong(t -> lastRequest(t, now));
            }
            if (fd.length > 1 && fd[1].trim().equalsIgnoreCase("DESC")) {
                c = c.reversed();
            }
            out = out == null ? c : out.thenComparing(c);
        }
        return out.thenComparingLong(t -> t.seq);
    }
}
