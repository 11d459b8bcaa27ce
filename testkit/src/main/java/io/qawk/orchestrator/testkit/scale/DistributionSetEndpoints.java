package io.qawk.orchestrator.testkit.scale;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.qawk.orchestrator.testkit.scale.Entities.DSet;
import io.qawk.orchestrator.query.Rsql;

/** {@code GET /distributionsets} (FIQL search, sort, paging) and {@code /distributionsets/{id}} (under the read lock). */
final class DistributionSetEndpoints {

    private static final Set<String> FIELDS = Set.of("id", "name", "version", "description", "complete", "type");

    private final TargetStore store;
    private final JsonViews views;

    DistributionSetEndpoints(TargetStore store, JsonViews views) {
        this.store = store;
        this.views = views;
    }

    Reply one(String id) {
        return views.ok(views.set(store.set(id)));
    }

    Reply search(Map<String, String> query) {
        Rsql.Node node = QueryParams.filter(query, FIELDS, "distribution set");
        List<DSet> all = new ArrayList<>();
        for (DSet s : store.sets.values()) {
            if (node == null || RsqlEvaluator.matches(node, c -> comparison(s, c))) {
                all.add(s);
            }
        }
        String sort = query.get("sort");
        if (sort != null && !sort.isBlank()) {
            all.sort(order(sort));
        }
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), views::set));
    }

    private static Comparator<DSet> order(String sort) {
        Comparator<DSet> order = null;
        for (String part : sort.split(",")) {
            String[] fd = part.trim().split(":");
            Comparator<DSet> c;
            switch (fd[0].trim().toLowerCase(Locale.ROOT)) {
                case "id":
                    c = Comparator.comparingLong(s -> s.id);
                    break;
                case "name":
                    c = Comparator.comparing(s -> s.name);
                    break;
                case "version":
                    c = Comparator.comparing(s -> s.version);
                    break;
                case "createdat":
                case "lastmodifiedat":
                    c = Comparator.<DSet>comparingLong(s -> s.createdAt).thenComparingLong(s -> s.id);
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
        return order;
    }

    private static boolean comparison(DSet s, Rsql.Comparison c) {
        switch (RsqlEvaluator.normalise(c.selector())) {
            case "id":
                return RsqlEvaluator.compare(String.valueOf(s.id), c);
            case "name":
                return RsqlEvaluator.compare(s.name, c);
            case "version":
                return RsqlEvaluator.compare(s.version, c);
            case "description":
                return RsqlEvaluator.compare("", c);
            case "complete":
                return RsqlEvaluator.compare(String.valueOf(s.complete), c);
            case "type":
                return RsqlEvaluator.compare("os", c);
            default:
                throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlInvalidField", c.selector());
        }
    }
}
