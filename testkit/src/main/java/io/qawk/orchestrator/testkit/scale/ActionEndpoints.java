package io.qawk.orchestrator.testkit.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.qawk.orchestrator.testkit.scale.Entities.Action;
import io.qawk.orchestrator.testkit.scale.Entities.StatusEntry;
import io.qawk.orchestrator.testkit.scale.Entities.Target;
import io.qawk.orchestrator.query.Rsql;

/** {@code GET /targets/{id}/actions}, {@code …/actions/{aid}} and {@code …/actions/{aid}/status} (under the read lock). */
final class ActionEndpoints {

    private static final Set<String> FIELDS = Set.of("id", "status", "detailstatus");

    private final TargetStore store;
    private final JsonViews views;

    ActionEndpoints(TargetStore store, JsonViews views) {
        this.store = store;
        this.views = views;
    }

    /** List items carry only a {@code self} link, as on 0.3.0M7. */
    Reply list(String controllerId, Map<String, String> query) {
        Target t = store.target(controllerId);
        Rsql.Node node = QueryParams.filter(query, FIELDS, "action");
        List<Action> all = new ArrayList<>();
        for (Action a : t.actions) {
            if (node == null || RsqlEvaluator.matches(node, c -> comparison(a, c))) {
                all.add(a);
            }
        }
        String sort = query.get("sort");
        if (sort != null && sort.toLowerCase(Locale.ROOT).startsWith("id:desc")) {
            all.sort(Comparator.comparingLong((Action a) -> a.id).reversed());
        } else if (sort != null && !sort.isBlank() && !sort.toLowerCase(Locale.ROOT).startsWith("id")) {
            throw HttpError.badRequest("hawkbit.server.error.rest.param.sortParamInvalidField", "unknown sort " + sort);
        }
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), a -> views.action(a, false)));
    }

    /** With the {@code distributionset} and {@code status} links. */
    Reply one(String controllerId, String actionId) {
        return views.ok(views.action(store.action(controllerId, actionId), true));
    }

    /** The status history, newest first (as hawkBit's own link asks: sort=id:DESC). */
    Reply status(String controllerId, String actionId, Map<String, String> query) {
        List<StatusEntry> all = new ArrayList<>(store.action(controllerId, actionId).history);
        Collections.reverse(all);
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), views::status));
    }

    private static boolean comparison(Action a, Rsql.Comparison c) {
        switch (RsqlEvaluator.normalise(c.selector())) {
            case "id":
                return RsqlEvaluator.compare(String.valueOf(a.id), c);
            case "status":
                return RsqlEvaluator.compare(a.active ? "pending" : "finished", c);
            case "detailstatus":
                return RsqlEvaluator.compare(a.state, c);
            default:
                throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlInvalidField", c.selector());
        }
    }
}
