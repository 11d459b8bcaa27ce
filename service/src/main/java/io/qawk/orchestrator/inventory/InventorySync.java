package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.Component;
import io.qawk.orchestrator.systemtype.DeviceKey;
import io.qawk.orchestrator.systemtype.SystemType;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps the local copy of hawkBit's targets that the system types care about.
 *
 * <p>One pass: list every component's matching targets (paged, 500 a page), read each matched device's
 * attributes (and metadata when a key uses it), re-read installed and assigned sets only for devices whose
 * update status or install time moved, then replace the inventory in one transaction. hawkBit being down
 * aborts the pass and leaves the previous inventory in place.
 * <p>
 * One class: one pass with its pool and the joining of asked-for passes; what it reads and writes lives beside it
 * (InventoryStore, AttributeCheck, Census).
 */
@ApplicationScoped
public class InventorySync {

    private static final Logger LOG = Logger.getLogger(InventorySync.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    InventoryStore store;

    @Inject
    InventoryConfig config;

    @Inject
    SyncState state;

    @Inject
    Clock clock;

    @Inject
    Event<InventorySynced> synced;

    @Inject
    Instance<InventoryContributor> contributors;

    private final ReentrantLock running = new ReentrantLock();
    private ExecutorService pool;
    private ExecutorService requested;
    /** A pass asked for through the API that has not started yet; guarded by this. */
    private CompletableFuture<SyncResult> waiting;

    @Scheduled(every = "${qawk.inventory.sync-interval:30s}", delayed = "${qawk.inventory.initial-delay:2s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = HawkbitNotConfigured.class)
    void scheduled() {
        try {
            syncNow();
        } catch (HawkbitUnavailableException e) {
            LOG.warnf("Inventory sync skipped: hawkBit is unavailable (%s)", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Inventory sync failed", e);
        }
    }

    /** Runs one pass now (waiting for a pass already under way to end first) and says what it found. */
    public SyncResult syncNow() {
        running.lock();
        try {
            // under a request budget, the engine's requests go first (HawkbitGateway#later)
            return HawkbitGateway.later(this::pass);
        } finally {
            running.unlock();
        }
    }

    /**
     * Runs one pass now as {@link #syncNow()} does, on a thread of its own: the caller may stop waiting for it (the API
     * answers before an idle connection would be cut) while the pass goes on and records how it went
     * ({@link SyncState}). Passes asked for this way run one after another, and a request made while one is waiting
     * to start joins it (that pass starts after both), so requests in a burst make one pass, not a queue of them.
     */
    public synchronized CompletableFuture<SyncResult> requestPass() {
        if (waiting != null) {
            return waiting;
        }
        CompletableFuture<SyncResult> pass = new CompletableFuture<>();
        waiting = pass;
        requested().execute(() -> {
            synchronized (this) {
                waiting = null;
            }
            try {
                pass.complete(syncNow());
            } catch (RuntimeException | Error e) {
                LOG.warnf("Inventory sync asked for through the API failed: %s", e.getMessage());
                pass.completeExceptionally(e);
            }
        });
        return pass;
    }

    private synchronized ExecutorService requested() {
        if (requested == null) {
            requested = Executors.newSingleThreadExecutor(r -> {
                Thread th = new Thread(r, "inventory-sync-requested");
                th.setDaemon(true);
                return th;
            });
        }
        return requested;
    }

    private SyncResult pass() {
        Instant started = clock.instant();
        state.started(started);
        try {
            List<SystemType> types = QuarkusTransaction.requiringNew().call(() -> SystemType.<SystemType>listAll());
            DeviceKey defaultGroup = DeviceKey.parse(config.defaultGroupKey()).orElse(null);

            Map<String, HawkbitTarget> observed = new LinkedHashMap<>();
            Map<Long, Map<String, List<String>>> matched = new HashMap<>();
            int requests = 0;
            for (SystemType type : types) {
                Map<String, List<String>> byDevice = new LinkedHashMap<>();
                for (Component component : type.components) {
                    List<HawkbitTarget> targets = hawkbit.targets(component.match);
                    requests += Math.max(1, (targets.size() + 499) / 500);
                    for (HawkbitTarget t : targets) {
                        observed.put(t.controllerId(), t);
                        byDevice.computeIfAbsent(t.controllerId(), k -> new ArrayList<>(1)).add(component.componentType);
                    }
                }
                matched.put(type.id, byDevice);
            }

            boolean needMetadata = types.stream().anyMatch(t -> usesMetadata(t.systemKey) || usesMetadata(groupKeyOf(t)));
            Map<String, DeviceRecord> known = store.loadDevices();
            Map<String, DeviceRecord> fresh = new ConcurrentHashMap<>();
            int perDevice = refreshDevices(types, matched, observed, known, needMetadata, fresh);
            requests += perDevice;

            Set<Membership> memberships = new HashSet<>();
            for (SystemType type : types) {
                DeviceKey systemKey = DeviceKey.parse(type.systemKey).orElseThrow();
                DeviceKey groupKey = type.groupKey != null ? DeviceKey.parse(type.groupKey).orElse(null) : defaultGroup;
                memberships.addAll(MembershipRules.classify(type.id, systemKey, groupKey, matched.get(type.id), fresh));
            }
            InventoryStore.Written written = store.apply(known, fresh.values(), store.loadMemberships(matched.keySet()),
                    memberships, started);
            for (InventoryContributor contributor : contributors) {
                requests += contributor.refresh();
            }
            Map<Long, CompatibilityRules> rules = new HashMap<>();
            types.forEach(t -> rules.put(t.id, t.compatibility()));
            store.refreshSystems(rules);
            Duration took = Duration.between(started, clock.instant());
            state.completed(clock.instant(), fresh.size(), requests, took);
            synced.fire(new InventorySynced());
            LOG.debugf("Inventory sync: %d devices, %d memberships, %d hawkBit requests, %d ms; wrote %s",
                    fresh.size(), memberships.size(), requests, took.toMillis(), written);
            return new SyncResult(fresh.size(), memberships.size(), requests, took.toMillis());
        } catch (RuntimeException e) {
            state.failed(clock.instant(), e.getMessage());
            throw e;
        }
    }

    /**
     * Fills {@code fresh} with every observed device: known devices whose key values one of the bulk checks (one plan
     * per system type, over the devices it matched) confirmed keep their stored attributes; the rest are read.
     */
    private int refreshDevices(List<SystemType> types, Map<Long, Map<String, List<String>>> matched,
                               Map<String, HawkbitTarget> observed, Map<String, DeviceRecord> known,
                               boolean needMetadata, Map<String, DeviceRecord> fresh) {
        Set<String> confirmed = new HashSet<>();
        Set<String> changed = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Integer>> checks = new ArrayList<>();
        for (SystemType type : types) {
            List<DeviceKey> keys = new ArrayList<>(2);
            keys.add(DeviceKey.parse(type.systemKey).orElseThrow());
            DeviceKey.parse(groupKeyOf(type)).filter(k -> !keys.contains(k)).ifPresent(keys::add);
            List<DeviceRecord> knownMatched = matched.get(type.id).keySet().stream()
                    .map(known::get).filter(Objects::nonNull).toList();
            AttributeCheck.Plan check = AttributeCheck.plan(keys, knownMatched, config.checkQueryLength());
            confirmed.addAll(check.checkable());
            changed.addAll(check.uncheckable());
            for (AttributeCheck.Query q : check.queries()) {
                checks.add(CompletableFuture.supplyAsync(() -> {
                    List<HawkbitTarget> answer = hawkbit.targets(q.fiql());
                    changed.addAll(check.changedIn(q, answer.stream().map(HawkbitTarget::controllerId).toList()));
                    return Math.max(1, (answer.size() + AttributeCheck.PAGE - 1) / AttributeCheck.PAGE);
                }, pool()));
            }
        }
        int requests = joinAll(checks);
        confirmed.removeAll(changed);
        requests += joinAll(observed.values().stream().map(t -> CompletableFuture.supplyAsync(() -> refresh(t,
                known.get(t.controllerId()), confirmed.contains(t.controllerId()), needMetadata, fresh), pool())).toList());
        return requests;
    }

    private static int joinAll(List<CompletableFuture<Integer>> work) {
        int sum = 0;
        try {
            for (CompletableFuture<Integer> f : work) {
                sum += f.join();
            }
        } catch (CompletionException e) {
            work.forEach(f -> f.cancel(false));
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
        return sum;
    }

    /**
     * Reads what the list does not carry; returns how many hawkBit requests it made. A device whose key values were
     * just confirmed in bulk ({@code keysUnchanged}) keeps its stored attributes.
     */
    private int refresh(HawkbitTarget t, DeviceRecord before, boolean keysUnchanged, boolean needMetadata,
                        Map<String, DeviceRecord> fresh) {
        String id = t.controllerId();
        try {
            int requests = 0;
            Map<String, String> attributes;
            Map<String, String> metadata = null;
            if (keysUnchanged && before != null) {
                attributes = before.attributes();
                metadata = before.metadata();
            } else {
                attributes = hawkbit.attributes(id);
                requests++;
                if (needMetadata) {
                    metadata = hawkbit.metadata(id);
                    requests++;
                }
            }
            boolean setsMoved = before == null
                    || !Objects.equals(before.updateStatus(), t.updateStatus())
                    || !Objects.equals(before.installedAt(), t.installedAt());
            Long installedId = before == null ? null : before.installedSetId();
            String installed = before == null ? null : before.installedSet();
            Long assignedId = before == null ? null : before.assignedSetId();
            String assigned = before == null ? null : before.assignedSet();
            if (setsMoved) {
                Optional<DistributionSetRef> i = hawkbit.installedSet(id);
                Optional<DistributionSetRef> a = hawkbit.assignedSet(id);
                requests += 2;
                installedId = i.map(DistributionSetRef::id).orElse(null);
                installed = i.map(DistributionSetRef::label).orElse(null);
                assignedId = a.map(DistributionSetRef::id).orElse(null);
                assigned = a.map(DistributionSetRef::label).orElse(null);
            }
            fresh.put(id, new DeviceRecord(id, t.name(), t.updateStatus(), t.lastControllerRequestAt(), t.installedAt(),
                    installedId, installed, assignedId, assigned, attributes, metadata));
            return requests;
        } catch (TargetNotFoundException gone) {
            LOG.debugf("Target %s vanished from hawkBit during the sync", id);
            return 1;
        }
    }

    private String groupKeyOf(SystemType t) {
        return t.groupKey != null ? t.groupKey : config.defaultGroupKey();
    }

    private static boolean usesMetadata(String key) {
        return key != null && key.startsWith("metadata.");
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            pool = Executors.newFixedThreadPool(Math.max(1, config.parallelRequests()), r -> {
                Thread th = new Thread(() -> HawkbitGateway.later(r), "inventory-sync");
                th.setDaemon(true);
                return th;
            });
        }
        return pool;
    }

    void stop(@Observes ShutdownEvent ev) {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (requested != null) {
            requested.shutdownNow();
        }
    }

    /** What one pass found. */
    public record SyncResult(int devices, int memberships, int hawkbitRequests, long durationMillis) {
    }
}
