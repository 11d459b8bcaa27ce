package io.qawk.orchestrator.testkit.scale;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.qawk.orchestrator.query.Rsql;
import io.qawk.orchestrator.testkit.scale.Entities.Action;
import io.qawk.orchestrator.testkit.scale.Entities.DSet;
import io.qawk.orchestrator.testkit.scale.Entities.Rollout;
import io.qawk.orchestrator.testkit.scale.Entities.Target;
import io.qawk.orchestrator.testkit.scale.Entities.TargetFilter;

/**
 * What hawkBit does outside Qawk and the ways a client stops it: {@code /rollouts} (list, one, its deployment groups
 * and their targets, pause, resume, approve, deny), {@code /targetfilters} (list, one, {@code autoAssignDS} switched
 * off and on) and {@code DELETE /targets/{id}/actions/{aid}}. Lists are paged like the others ({@code offset},
 * {@code limit} capped at 500, {@code sort} by id or name, {@code q} on id and name). A rollout has one deployment group
 * holding every target of its query. A change hawkBit refuses in that state answers 400.
 */
final class RolloutEndpoints {

    private static final Set<String> ROLLOUT_FIELDS = Set.of("id", "name", "description");
    private static final Set<String> FILTER_FIELDS = Set.of("id", "name");
    private static final String ILLEGAL_STATE = "hawkbit.server.error.rollout.illegalstate";

    private final TargetStore store;
    private final TargetSearch search;
    private final JsonViews views;
    private final ObjectMapper json;

    RolloutEndpoints(TargetStore store, TargetSearch search, JsonViews views, ObjectMapper json) {
        this.store = store;
        this.search = search;
        this.views = views;
        this.json = json;
    }

    // --------------------------------------------------------------------------------------------- rollouts (read lock)

    Reply rollouts(Map<String, String> query) {
        List<Rollout> all = filtered(store.rollouts.values(), query, ROLLOUT_FIELDS, "rollout",
                (r, c) -> field(c, String.valueOf(r.id), r.name), r -> r.id, r -> r.name);
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), views::rollout));
    }

    Reply rollout(String id) {
        return views.ok(views.rollout(store.rollout(id)));
    }

    /** One group per rollout, with the rollout's id. */
    Reply groups(String rolloutId, Map<String, String> query) {
        Rollout r = store.rollout(rolloutId);
        return views.ok(views.page(List.of(r), QueryParams.offset(query), QueryParams.limit(query),
                x -> views.rolloutGroup(x, targetsOf(x.query, null).size())));
    }

    Reply groupTargets(String rolloutId, String groupId, Map<String, String> query) {
        Rollout r = store.rollout(rolloutId);
        if (!groupId.equals(String.valueOf(r.id))) {
            throw HttpError.notFound("RolloutGroup", groupId);
        }
        List<Target> all = targetsOf(r.query, query.get("q"));
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query),
                t -> views.target(t, false)));
    }

    private List<Target> targetsOf(String rolloutQuery, String q) {
        String both = q == null || q.isBlank() ? rolloutQuery : "(" + rolloutQuery + ");(" + q + ")";
        return search.matching(Map.of("q", both, "sort", "controllerId:ASC"));
    }

    // --------------------------------------------------------------------------------------------- rollouts (write lock)

    /** pause: running → paused; resume: paused → running; approve: waiting → ready; deny: waiting → denied. */
    Reply change(String rolloutId, String verb) {
        return store.write(() -> {
            Rollout r = store.rollout(rolloutId);
            String from;
            String to;
            switch (verb) {
                case "pause":
                    from = "running";
                    to = "paused";
                    break;
                case "resume":
                    from = "paused";
                    to = "running";
                    break;
                case "approve":
                    from = "waiting_for_approval";
                    to = "ready";
                    break;
                case "deny":
                    from = "waiting_for_approval";
                    to = "approval_denied";
                    break;
                default:
                    throw HttpError.notFound("Rollout action", verb);
            }
            if (!from.equals(r.status)) {
                throw HttpError.badRequest(ILLEGAL_STATE, "Rollout " + r.id + " is " + r.status + ", not " + from);
            }
            r.status = to;
            r.lastModifiedAt = Math.max(store.now(), r.lastModifiedAt + 1);
            return new Reply(200, null);
        });
    }

    // --------------------------------------------------------------------------------------------- target filters

    Reply filters(Map<String, String> query) {
        List<TargetFilter> all = filtered(store.filters.values(), query, FILTER_FIELDS, "target filter",
                (f, c) -> field(c, String.valueOf(f.id), f.name), f -> f.id, f -> f.name);
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), views::targetFilter));
    }

    Reply filter(String id) {
        return views.ok(views.targetFilter(store.filter(id)));
    }

    /** {@code DELETE …/autoAssignDS}: 204, the filter kept without its set. */
    Reply switchOff(String filterId) {
        return store.write(() -> {
            TargetFilter f = store.filter(filterId);
            f.autoAssign = null;
            f.actionType = null;
            f.lastModifiedAt = Math.max(store.now(), f.lastModifiedAt + 1);
            return Reply.noContent();
        });
    }

    /** {@code POST …/autoAssignDS} with {@code {"id": set, "type": "forced"|"soft"|…}}: 200 with the filter. */
    Reply switchOn(String filterId, byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "body is not JSON");
        }
        if (root == null || !root.path("id").canConvertToLong()) {
            throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "body without set id");
        }
        String type = root.path("type").asText("forced").toLowerCase(Locale.ROOT);
        return store.write(() -> {
            TargetFilter f = store.filter(filterId);
            DSet set = store.set(root.get("id").asText());
            if (!set.complete) {
                throw HttpError.badRequest("hawkbit.server.error.distributionset.incomplete",
                        "Distribution set is incomplete: " + set.id);
            }
            f.autoAssign = set;
            f.actionType = type;
            f.lastModifiedAt = Math.max(store.now(), f.lastModifiedAt + 1);
            return views.ok(views.targetFilter(f));
        });
    }

    // --------------------------------------------------------------------------------------------- actions

    /**
     * {@code DELETE /targets/{id}/actions/{aid}}: an open action is cancelled at once (as if its device confirmed the
     * cancellation right away), the target's assigned set back to its installed one: 204. A closed one: 400.
     */
    Reply cancel(String controllerId, String actionId) {
        return store.write(() -> {
            Action a = store.action(controllerId, actionId);
            if (!a.active) {
                throw HttpError.badRequest("hawkbit.server.error.action.cancelNotAllowed",
                        "Action " + a.id + " is closed and cannot be cancelled");
            }
            long now = store.now();
            a.active = false;
            a.state = "canceled";
            a.finishedAt = now;
            store.addHistory(a, "canceled", "scale double: cancelled through the Management API", now);
            Target t = a.target;
            t.assigned = t.installed;
            t.updateStatus = t.installed == null ? "registered" : "in_sync";
            t.lastModifiedAt = now;
            store.changed();
            return Reply.noContent();
        });
    }

    // --------------------------------------------------------------------------------------------- lists

    private interface FieldTest<T> {
        boolean matches(T item, Rsql.Comparison c);
    }

    private static <T> List<T> filtered(Iterable<T> items, Map<String, String> query, Set<String> fields, String what,
            FieldTest<T> test, ToLongFunction<T> id, Function<T, String> name) {
        Rsql.Node node = QueryParams.filter(query, fields, what);
        List<T> all = new ArrayList<>();
        for (T item : items) {
            if (node == null || RsqlEvaluator.matches(node, c -> test.matches(item, c))) {
                all.add(item);
            }
        }
        String sort = query.get("sort");
        if (sort != null && !sort.isBlank()) {
            Comparator<T> order = null;
            for (String part : sort.split(",")) {
                String[] fd = part.trim().split(":");
                Comparator<T> c;
                switch (fd[0].trim().toLowerCase(Locale.ROOT)) {
                    case "id":
                        c = Comparator.comparingLong(id);
                        break;
                    case "name":
                        c = Comparator.comparing(name);
                        break;
                    default:
                        throw HttpError.badRequest("hawkbit.server.error.rest.param.sortParamInvalidField",
                                "unknown sort field " + fd[0]);
                }
                if (fd.length > 1 && fd[1].trim().equalsIgnoreCase("DESC")) {
                    c = c.reversed();
                }
                order = order == null ? c : order.thenComparing(c);
            }
            all.sort(order);
        }
        return all;
    }

    private static boolean field(Rsql.Comparison c, String id, String name) {
        switch (RsqlEvaluator.normalise(c.selector())) {
            case "id":
                return RsqlEvaluator.compare(id, c);
            case "name":
                return RsqlEvaluator.compare(name, c);
            case "description":
                return RsqlEvaluator.compare("", c);
            default:
                throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlInvalidField", c.selector());
        }
    }
}
