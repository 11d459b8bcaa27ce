package io.qawk.orchestrator.testkit.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.qawk.orchestrator.testkit.scale.Entities.Action;
import io.qawk.orchestrator.testkit.scale.Entities.DSet;
import io.qawk.orchestrator.testkit.scale.Entities.Target;

/**
 * The double's state — targets (by controller id, also case-insensitively), distribution sets and actions — behind
 * one read/write lock, with the changes a test or benchmark makes to its fleet. {@link #version()} moves with every
 * change of targets, so derived caches know when they are stale.
 */
final class TargetStore {

    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final TreeMap<String, Target> targets = new TreeMap<>();
    final Map<String, Target> targetsLower = new HashMap<>();
    final Map<Long, DSet> sets = new LinkedHashMap<>();
    /** The last set id given (ids are 1, 2, 3, … and not given again after a delete, as in hawkBit). */
    private final AtomicLong setIds = new AtomicLong();
    final Map<Long, Action> actions = new HashMap<>();
    final TreeMap<Long, Entities.Rollout> rollouts = new TreeMap<>();
    final TreeMap<Long, Entities.TargetFilter> filters = new TreeMap<>();
    final AtomicLong actionIds = new AtomicLong();
    private final AtomicLong statusIds = new AtomicLong();
    private final LongSupplier clock;
    private long targetSeq;
    private volatile long version; // written under the write lock

    TargetStore(LongSupplier clock) {
        this.clock = clock;
    }

    long now() {
        return clock.getAsLong();
    }

    long version() {
        return version;
    }

    /** Marks a change of targets (caller holds the write lock). */
    void changed() {
        version++;
    }

    <T> T read(Supplier<T> what) {
        lock.readLock().lock();
        try {
            return what.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    <T> T write(Supplier<T> what) {
        lock.writeLock().lock();
        try {
            return what.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    void write(Runnable what) {
        write(() -> {
            what.run();
            return null;
        });
    }

    void addHistory(Action a, String type, String message, long at) {
        a.history.add(new Entities.StatusEntry(statusIds.incrementAndGet(), type, message, at));
    }

    // --------------------------------------------------------------------------------------------- lookups

    Target requireTarget(String id) {
        Target t = targets.get(id);
        if (t == null) {
            throw new IllegalArgumentException("no such target: " + id);
        }
        return t;
    }

    DSet requireSet(long id) {
        DSet s = sets.get(id);
        if (s == null) {
            throw new IllegalArgumentException("no such set: " + id);
        }
        return s;
    }

    /** The target, or 404 as hawkBit answers. */
    Target target(String controllerId) {
        Target t = targets.get(controllerId);
        if (t == null) {
            throw HttpError.notFound("Target", controllerId);
        }
        return t;
    }

    /** The target's action {@code actionId}, or 404 (400 when not a number). */
    Action action(String controllerId, String actionId) {
        Target t = target(controllerId);
        Action a = actions.get(number(actionId));
        if (a == null || a.target != t) {
            throw HttpError.notFound("Action", actionId);
        }
        return a;
    }

    /** The set, or 404 (400 when not a number). */
    DSet set(String id) {
        DSet s = sets.get(number(id));
        if (s == null) {
            throw HttpError.notFound("DistributionSet", id);
        }
        return s;
    }

    /** The rollout, or 404 (400 when not a number). */
    Entities.Rollout rollout(String id) {
        Entities.Rollout r = rollouts.get(number(id));
        if (r == null) {
            throw HttpError.notFound("Rollout", id);
        }
        return r;
    }

    /** The target filter, or 404 (400 when not a number). */
    Entities.TargetFilter filter(String id) {
        Entities.TargetFilter f = filters.get(number(id));
        if (f == null) {
            throw HttpError.notFound("TargetFilterQuery", id);
        }
        return f;
    }

    private static long number(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.param.typeMismatch", "not a number: " + id);
        }
    }

    // --------------------------------------------------------------------------------------------- fleet

    long addDistributionSet(String name, String version, boolean complete) {
        return write(() -> {
            long id = setIds.incrementAndGet();
            sets.put(id, new DSet(id, name, version, complete, now()));
            return id;
        });
    }

    /** Deletes a set: hawkBit answers 404 for it from now on; targets that run it keep it. */
    void deleteDistributionSet(long id) {
        write(() -> {
            requireSet(id);
            sets.remove(id);
        });
    }

    void addTarget(String controllerId, Map<String, String> attributes) {
        write(() -> putTarget(controllerId, attributes, now()));
    }

    private Target putTarget(String controllerId, Map<String, String> attributes, long now) {
        if (targets.containsKey(controllerId)) {
            throw new IllegalArgumentException("target exists: " + controllerId);
        }
        Target t = new Target(controllerId, ++targetSeq, now);
        t.attributes = Map.copyOf(attributes);
        t.lastRequestAt = attributes.isEmpty() ? 0 : now;
        targets.put(controllerId, t);
        targetsLower.put(controllerId.toLowerCase(Locale.ROOT), t);
        version++;
        return t;
    }

    void removeTarget(String controllerId) {
        write(() -> {
            if (targets.remove(controllerId) != null) {
                targetsLower.remove(controllerId.toLowerCase(Locale.ROOT));
                version++;
            }
        });
    }

    ScaleHawkbit.Population populate(int systems, int devicesPerSystem, List<String> componentTypes, int centres,
            String typePrefix) {
        List<String> names = new ArrayList<>(systems);
        Map<String, List<String>> bySystem = new LinkedHashMap<>();
        Map<String, String> typeOf = new LinkedHashMap<>();
        write(() -> {
            long now = now();
            for (int i = 0; i < systems; i++) {
                String system = String.format("sys-%06d", i);
                String centre = String.format("c%04d", i % Math.max(1, centres));
                names.add(system);
                List<String> devices = new ArrayList<>(devicesPerSystem);
                for (int j = 0; j < devicesPerSystem; j++) {
                    String type = componentTypes.get(j % componentTypes.size());
                    String id = system + "-" + type + "-" + j;
                    putTarget(id, Map.of("device", system, "device_type", typePrefix + type, "centerid", centre), now);
                    devices.add(id);
                    typeOf.put(id, type);
                }
                bySystem.put(system, List.copyOf(devices));
            }
        });
        return new ScaleHawkbit.Population(List.copyOf(names), Collections.unmodifiableMap(bySystem),
                Collections.unmodifiableMap(typeOf));
    }

    void preinstall(long setId, Iterable<String> controllerIds) {
        write(() -> {
            DSet set = requireSet(setId);
            long now = now();
            for (String id : controllerIds) {
                Target t = requireTarget(id);
                t.installed = set;
                t.assigned = set;
                t.installedAt = now;
                t.updateStatus = "in_sync";
            }
            version++;
        });
    }

    /** The device reports a changed attribute (it polled now). */
    void setAttribute(String controllerId, String key, String value) {
        write(() -> {
            Target t = requireTarget(controllerId);
            t.attributes = with(t.attributes, key, value);
            t.lastRequestAt = now();
            version++;
        });
    }

    /** Metadata written through the Management API (moves lastModifiedAt). */
    void setMetadata(String controllerId, String key, String value) {
        write(() -> {
            Target t = requireTarget(controllerId);
            t.metadata = with(t.metadata, key, value);
            t.lastModifiedAt = now();
            version++;
        });
    }

    void setTags(String controllerId, Set<String> tags) {
        write(() -> {
            requireTarget(controllerId).tags = Set.copyOf(tags);
            version++;
        });
    }

    private static Map<String, String> with(Map<String, String> map, String key, String value) {
        Map<String, String> out = new LinkedHashMap<>(map);
        if (value == null) {
            out.remove(key);
        } else {
            out.put(key, value);
        }
        return Collections.unmodifiableMap(out);
    }

    // --------------------------------------------------------------------------------------------- rollouts, filters

    long addRollout(String name, String query, long setId, String status) {
        return write(() -> {
            long id = rollouts.isEmpty() ? 1 : rollouts.lastKey() + 1;
            rollouts.put(id, new Entities.Rollout(id, name, query, requireSet(setId), status, now()));
            return id;
        });
    }

    long addTargetFilter(String name, String query, Long autoAssignSetId, String actionType) {
        return write(() -> {
            long id = filters.isEmpty() ? 1 : filters.lastKey() + 1;
            filters.put(id, new Entities.TargetFilter(id, name, query,
                    autoAssignSetId == null ? null : requireSet(autoAssignSetId), actionType, now()));
            return id;
        });
    }

    /** As a change through the Management API: the rollout's status, and its lastModifiedAt moves. */
    void setRolloutStatus(long id, String status) {
        write(() -> {
            Entities.Rollout r = rollouts.get(id);
            if (r == null) {
                throw new IllegalArgumentException("no such rollout: " + id);
            }
            r.status = status;
            r.lastModifiedAt = Math.max(now(), r.lastModifiedAt + 1);
        });
    }

    /** As a change through the Management API: the filter's query, and its lastModifiedAt moves. */
    void setFilterQuery(long id, String query) {
        write(() -> {
            Entities.TargetFilter f = filters.get(id);
            if (f == null) {
                throw new IllegalArgumentException("no such target filter: " + id);
            }
            f.query = query;
            f.lastModifiedAt = Math.max(now(), f.lastModifiedAt + 1);
        });
    }
}
