package io.qawk.orchestrator.testkit.scale;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.qawk.orchestrator.testkit.scale.Entities.Action;
import io.qawk.orchestrator.testkit.scale.Entities.DSet;
import io.qawk.orchestrator.testkit.scale.Entities.Target;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.DeviceRule;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Outcome;

/**
 * {@code POST /distributionsets/{id}/assignedTargets} with hawkBit's rules, and the devices' side: each new action is
 * finished (or failed, or never) per {@link DeviceRule} after its delay. Completions wait in a priority queue and are
 * applied lazily by {@link #settle()} before each request, so no thread per device is needed.
 */
final class Assignments {

    private static final Set<String> TYPES = Set.of("forced", "soft", "timeforced", "downloadonly");

    private final TargetStore store;
    private final Settings settings;
    private final JsonViews views;
    private final ObjectMapper json;
    private final PriorityBlockingQueue<Action> due = new PriorityBlockingQueue<>(1024,
            Comparator.comparingLong((Action a) -> a.dueAt).thenComparingLong(a -> a.id));

    Assignments(TargetStore store, Settings settings, JsonViews views, ObjectMapper json) {
        this.store = store;
        this.settings = settings;
        this.views = views;
        this.json = json;
    }

    /**
     * Unknown targets are dropped silently, "already assigned" compares the assigned set, an open action is
     * cancelled by a new assignment; more than {@link ScaleHawkbit#MAX_ASSIGN} targets → 403 (quota), unknown set →
     * 404, incomplete set → 500.
     */
    Reply assign(String setId, byte[] body) {
        List<String> wanted = new ArrayList<>();
        String type = readBody(body, wanted);
        return store.write(() -> {
            DSet set = store.set(setId);
            if (!set.complete) {
                throw new HttpError(500, "hawkbit.server.error.repo.incompleteDistributionSet",
                        "Distribution set of type os is incomplete: " + set.id);
            }
            if (wanted.size() > ScaleHawkbit.MAX_ASSIGN) {
                throw new HttpError(403, "hawkbit.server.error.quota.tooManyEntries",
                        "Quota exceeded: cannot assign more than " + ScaleHawkbit.MAX_ASSIGN + " targets at once");
            }
            long now = settings.now();
            int already = 0;
            ArrayNode created = json.createArrayNode();
            Set<Target> seen = new LinkedHashSet<>();
            DeviceRule rule = settings.rule;
            for (String id : wanted) {
                Target t = store.targetsLower.get(id.toLowerCase(Locale.ROOT));
                if (t == null || !seen.add(t)) {
                    continue;
                }
                if (t.assigned == set) {
                    already++;
                    continue;
                }
                created.add(views.assignedAction(newAction(t, set, type, rule, now)));
            }
            store.changed();
            int assigned = created.size();
            ObjectNode answer = views.object().put("alreadyAssigned", already);
            answer.set("assignedActions", created);
            return views.ok(answer.put("assigned", assigned).put("total", assigned + already));
        });
    }

    private String readBody(byte[] body, List<String> wanted) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "body is not JSON");
        }
        if (root == null || !root.isArray()) {
            throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "body is not a JSON array");
        }
        String type = "forced";
        for (JsonNode n : root) {
            if (!n.path("id").isTextual()) {
                throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "entry without id");
            }
            String t = n.path("type").asText("forced").toLowerCase(Locale.ROOT);
            if (!TYPES.contains(t)) {
                throw HttpError.badRequest("hawkbit.server.error.rest.body.notReadable", "unknown type " + t);
            }
            type = t;
            wanted.add(n.get("id").asText());
        }
        return type;
    }

    private Action newAction(Target t, DSet set, String type, DeviceRule rule, long now) {
        for (Action open : t.actions) {
            if (open.active) {
                open.active = false;
                open.finishedAt = now;
                open.state = "canceled";
                store.addHistory(open, "canceled", "cancelled by a new assignment", now);
            }
        }
        Action a = new Action(store.actionIds.incrementAndGet(), t, set, now, type);
        store.addHistory(a, "running", null, now);
        t.actions.add(a);
        store.actions.put(a.id, a);
        t.assigned = set;
        t.updateStatus = "pending";
        t.lastModifiedAt = now;
        a.outcome = rule.outcome(t.id, set.info());
        if (a.outcome != Outcome.NEVER) {
            a.dueAt = now + Math.max(0, rule.delay(t.id, set.info()).toMillis());
            due.add(a);
        }
        return a;
    }

    // --------------------------------------------------------------------------------------------- device side

    /** Applies every completion that is due now. */
    void settle() {
        Action head = due.peek();
        if (head == null || head.dueAt > settings.now()) {
            return;
        }
        store.write(() -> {
            long now = settings.now();
            Action next;
            while ((next = due.peek()) != null && next.dueAt <= now) {
                Action a = due.poll();
                complete(a, a.dueAt); // at the moment the device finished, not when it is noticed
            }
        });
    }

    /**
     * The device reports now on its newest open action, installed ({@link Outcome#SUCCESS}) or failed
     * ({@link Outcome#FAILURE}), whatever its rule said (a device that was silent speaks).
     */
    void report(String controllerId, Outcome outcome) {
        if (outcome == Outcome.NEVER) {
            throw new IllegalArgumentException("a report is a success or a failure");
        }
        store.write(() -> {
            Target t = store.requireTarget(controllerId);
            Action open = null;
            for (Action a : t.actions) {
                if (a.active) {
                    open = a;
                }
            }
            if (open == null) {
                throw new IllegalStateException(controllerId + " has no open action to report on");
            }
            due.remove(open);
            open.outcome = outcome;
            complete(open, settings.now());
        });
    }

    /** Waits until no completion is queued before {@code within} passes. */
    boolean awaitCompletions(Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            settle();
            if (due.isEmpty()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return due.isEmpty();
    }

    /**
     * Success: installedDS := the set, updateStatus {@code in_sync}, history {@code finished}. Failure: updateStatus
     * {@code error}, assignedDS cleared (204, as on 0.3.0M7), history {@code error}; installedDS unchanged.
     */
    private void complete(Action a, long now) {
        if (!a.active) {
            return; // cancelled meanwhile
        }
        Target t = a.target;
        a.active = false;
        a.finishedAt = now;
        store.addHistory(a, "retrieved",
                "Update Server: Target retrieved update action and should start now the download.", now);
        store.addHistory(a, "running", "scale double: installing " + a.set.name + ":" + a.set.version, now);
        if (a.outcome == Outcome.SUCCESS) {
            a.state = "finished";
            store.addHistory(a, "finished", "scale double: installed", now);
            t.installed = a.set;
            t.installedAt = now;
            t.updateStatus = "in_sync";
        } else {
            a.state = "error";
            store.addHistory(a, "error", "scale double: installation failed", now);
            t.updateStatus = "error";
            t.assigned = null; // hawkBit 0.3.0M7: the failed set is no longer the assigned one
        }
        t.lastRequestAt = now;
        store.changed();
    }
}
