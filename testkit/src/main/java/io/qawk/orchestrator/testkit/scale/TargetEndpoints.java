package io.qawk.orchestrator.testkit.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.qawk.orchestrator.testkit.scale.Entities.DSet;
import io.qawk.orchestrator.testkit.scale.Entities.Target;

/** {@code GET /targets}, {@code /targets/{id}} and its attributes, metadata, installedDS and assignedDS (under the read lock). */
final class TargetEndpoints {

    private final TargetStore store;
    private final TargetSearch search;
    private final JsonViews views;

    TargetEndpoints(TargetStore store, TargetSearch search, JsonViews views) {
        this.store = store;
        this.search = search;
        this.views = views;
    }

    Reply list(Map<String, String> query) {
        List<Target> all = search.matching(query);
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), t -> views.target(t, false)));
    }

    Reply one(String controllerId) {
        return views.ok(views.target(store.target(controllerId), true));
    }

    /** 204 when the device reported none (as hawkBit answers). */
    Reply attributes(String controllerId) {
        Target t = store.target(controllerId);
        return t.attributes.isEmpty() ? Reply.noContent() : views.ok(views.attributes(t.attributes));
    }

    Reply metadata(String controllerId, Map<String, String> query) {
        List<Map.Entry<String, String>> all = new ArrayList<>(store.target(controllerId).metadata.entrySet());
        all.sort(Map.Entry.comparingByKey());
        return views.ok(views.page(all, QueryParams.offset(query), QueryParams.limit(query), views::metadata));
    }

    Reply installed(String controllerId) {
        return setOrNoContent(store.target(controllerId).installed);
    }

    Reply assigned(String controllerId) {
        return setOrNoContent(store.target(controllerId).assigned);
    }

    private Reply setOrNoContent(DSet set) {
        return set == null ? Reply.noContent() : views.ok(views.set(set));
    }
}
