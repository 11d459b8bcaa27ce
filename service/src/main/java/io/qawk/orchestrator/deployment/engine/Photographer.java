package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.observation.FanOut;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.store.SystemRunWriter;
import io.qawk.orchestrator.deployment.plan.LostWork;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitAction;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.qawk.orchestrator.systemtype.SystemType;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Takes systems' photographs before anything moves: their devices (from the inventory) that fill a component of
 * the manifest, each with the set hawkBit says it runs right now. That is what a rollback goes back to. Each device
 * also keeps its component's verification query (the manifest revision's) and health query (the system type's) as
 * they are now, so an edit while the run is under way changes nothing of it.
 *
 * <p>What each device runs is confirmed with hawkBit in bulk: devices are grouped by the set the inventory last saw
 * installed, and one query per set and chunk confirms them; only devices the inventory knew nothing of, or whose
 * set changed since, are asked one by one.
 *
 * <p>A device hawkBit shows on its destination already has its action history read: when Qawk's own lost work put it
 * there (a restore, a standby promoted), its "before" is the set it finished before ({@link LostWork}), and the
 * timeline says the photograph was rebuilt.
 */
@ApplicationScoped
public class Photographer {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    SystemsQuery systems;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    EngineConfig config;

    @Inject
    FanOut fanOut;

    /** The devices to store per run; runs no longer pending are left out. */
    public Map<Long, List<RunDevice>> photograph(List<Long> runIds) {
        record Context(SystemRun run, Manifest manifest, Map<String, String> healthOf, Instant started) {
        }
        List<Context> contexts = QuarkusTransaction.requiringNew().call(() -> {
            List<Context> out = new ArrayList<>();
            Map<Long, Manifest> manifests = new HashMap<>();
            Map<Long, Map<String, String>> health = new HashMap<>();
            Map<Long, SystemRun> runs = new HashMap<>();
            if (!runIds.isEmpty()) {
                runWriter.read(runIds).forEach(r -> runs.put(r.id, r)); // one query, plain rows: only looked at
            }
            for (long runId : runIds) {
                SystemRun run = runs.get(runId);
                if (run == null || run.state != RunState.PENDING) {
                    continue;
                }
                SystemDeployment d = SystemDeployment.findById(run.deploymentId);
                Manifest m = manifests.computeIfAbsent(d.id, id -> d.manifest()); // its revision, not today's edit
                out.add(new Context(run, m, health.computeIfAbsent(m.systemTypeId, Photographer::healthQueries),
                        d.startedAt));
            }
            return out;
        });
        Map<Long, List<RunDevice>> photos = new LinkedHashMap<>();
        Map<Long, List<SystemsQuery.SystemDevice>> seenBySet = new HashMap<>();
        List<SystemsQuery.SystemDevice> unknown = new ArrayList<>();
        Map<String, RunDevice> byController = new HashMap<>();
        Map<Long, Map<String, List<SystemsQuery.SystemDevice>>> devicesByType = new HashMap<>();
        contexts.stream().collect(Collectors.groupingBy(ctx -> ctx.manifest().systemTypeId,
                        Collectors.mapping(ctx -> ctx.run().system, Collectors.toList())))
                .forEach((type, names) -> devicesByType.put(type, systems.devicesOf(type, names)));
        for (Context ctx : contexts) {
            List<RunDevice> photo = new ArrayList<>();
            for (SystemsQuery.SystemDevice dev : devicesByType.get(ctx.manifest().systemTypeId)
                    .getOrDefault(ctx.run().system, List.of())) {
                Optional<ManifestComponent> component = ctx.manifest().component(dev.componentType());
                if (component.isEmpty()) {
                    continue; // component types the manifest leaves out are not touched
                }
                RunDevice d = new RunDevice();
                d.runId = ctx.run().id;
                d.controllerId = dev.controllerId();
                d.componentType = dev.componentType();
                d.order = component.get().order;
                d.toSetId = component.get().distributionSetId;
                d.toSet = component.get().distributionSet;
                d.verifyQuery = component.get().verify;
                d.healthQuery = ctx.healthOf().get(dev.componentType());
                photo.add(d);
                byController.put(d.controllerId, d);
                if (dev.installedSetId() == null) {
                    unknown.add(dev);
                } else {
                    seenBySet.computeIfAbsent(dev.installedSetId(), k -> new ArrayList<>()).add(dev);
                }
            }
            photos.put(ctx.run().id, photo);
        }
        confirmInBulk(seenBySet, byController, unknown);
        Set<String> gone = new HashSet<>();
        for (SystemsQuery.SystemDevice dev : unknown) {
            try {
                Optional<DistributionSetRef> installed = hawkbit.installedSet(dev.controllerId());
                RunDevice d = byController.get(dev.controllerId());
                d.fromSetId = installed.map(DistributionSetRef::id).orElse(null);
                d.fromSet = installed.map(DistributionSetRef::label).orElse(null);
            } catch (TargetNotFoundException e) {
                gone.add(dev.controllerId());
            }
        }
        photos.values().forEach(list -> list.removeIf(d -> gone.contains(d.controllerId)));
        List<Runnable> onTheirSet = new ArrayList<>();
        Map<Long, String> labels = new ConcurrentHashMap<>();
        for (Context ctx : contexts) {
            if (ctx.started() == null) {
                continue;
            }
            for (RunDevice d : photos.get(ctx.run().id)) {
                if (d.fromSetId != null && d.fromSetId == d.toSetId) {
                    onTheirSet.add(() -> unlessLostWork(d, ctx.started(), labels));
                }
            }
        }
        fanOut.runAll(onTheirSet);
        return photos;
    }

    /**
     * A photograph is never taken from Qawk's own lost work: a device hawkBit shows on its destination already is
     * photographed on the set it finished before, when Qawk's user gave it the destination after the deployment
     * {@code started} ({@link LostWork} decides). Only such devices are asked: their listing, and then only the actions
     * that may decide (Qawk's since the start, finished ones) are read on their own, newest first, down to the newest
     * that finished before the start.
     */
    private void unlessLostWork(RunDevice d, Instant started, Map<Long, String> labels) {
        String user = hawkbit.user();
        try {
            List<LostWork.Action> listed = hawkbit.actions(d.controllerId, null).stream().map(Photographer::lostWork)
                    .toList(); // newest first
            if (listed.stream().noneMatch(a -> a.oursSince(user, started))) {
                return; // on its set before the deployment started: "already on it"
            }
            List<LostWork.Action> read = new ArrayList<>();
            for (LostWork.Action a : listed) {
                boolean weighs = a.oursSince(user, started) || a.finished();
                read.add(weighs && a.setId() == null ? lostWork(hawkbit.action(d.controllerId, a.id())) : a);
                if (a.finished() && a.createdAt() != null && a.createdAt().isBefore(started)) {
                    break; // older ones cannot be the set it ran before
                }
            }
            LostWork.before(read, d.toSetId, user, started).ifPresent(before -> {
                d.rebuiltFromAction = before.actionId();
                d.fromSetId = before.setId();
                d.fromSet = before.setId() == null ? null : label(before.setId(), labels);
            });
        } catch (TargetNotFoundException gone) {
            // the observer's step says it left
        }
    }

    /** A set's name as hawkBit gives it ({@code set <id>} when hawkBit no longer knows it), asked once per photograph. */
    private String label(long setId, Map<Long, String> labels) {
        String known = labels.get(setId); // no call to hawkBit inside the map's lock
        if (known == null) {
            known = hawkbit.knownDistributionSet(setId).map(DistributionSetRef::label).orElse("set " + setId);
            labels.put(setId, known);
        }
        return known;
    }

    private static LostWork.Action lostWork(HawkbitAction a) {
        return new LostWork.Action(a.id(), a.createdBy(), a.createdAt(), a.distributionSetId(), a.status(), a.open());
    }

    /** The system type's health queries by component type (components without one are left out). */
    private static Map<String, String> healthQueries(long systemTypeId) {
        Map<String, String> out = new HashMap<>();
        SystemType type = SystemType.findById(systemTypeId);
        if (type != null) {
            type.components.stream().filter(c -> c.health != null).forEach(c -> out.put(c.componentType, c.health));
        }
        return out;
    }

    /** Confirms the inventory's installed sets with one query per set and chunk; the unconfirmed join {@code unknown}. */
    private void confirmInBulk(Map<Long, List<SystemsQuery.SystemDevice>> seenBySet, Map<String, RunDevice> byController,
                               List<SystemsQuery.SystemDevice> unknown) {
        List<SystemsQuery.SystemDevice> unconfirmed = Collections.synchronizedList(new ArrayList<>());
        Map<Long, DistributionSetRef> sets = new ConcurrentHashMap<>();
        fanOut.runAll(seenBySet.keySet().stream().<Runnable>map(id -> () -> hawkbit.knownDistributionSet(id)
                .ifPresent(set -> sets.put(id, set))).toList());
        List<Runnable> chunks = new ArrayList<>();
        for (Map.Entry<Long, List<SystemsQuery.SystemDevice>> e : seenBySet.entrySet()) {
            DistributionSetRef set = sets.get(e.getKey());
            if (set == null) {
                unconfirmed.addAll(e.getValue());
                continue;
            }
            for (List<SystemsQuery.SystemDevice> chunk : HawkbitGateway.idChunks(e.getValue(), SystemsQuery.SystemDevice::controllerId,
                    Math.max(50, config.observeChunk()), config.observeQueryLength())) {
                chunks.add(() -> {
                    Set<String> confirmed = hawkbit.installedOn(set,
                            chunk.stream().map(SystemsQuery.SystemDevice::controllerId).toList());
                    for (SystemsQuery.SystemDevice dev : chunk) {
                        if (confirmed.contains(dev.controllerId())) {
                            RunDevice d = byController.get(dev.controllerId()); // each device in one chunk only
                            d.fromSetId = set.id();
                            d.fromSet = set.label();
                        } else {
                            unconfirmed.add(dev);
                        }
                    }
                });
            }
        }
        fanOut.runAll(chunks); // side by side: a busy hawkBit answers each in seconds
        unknown.addAll(unconfirmed);
    }
}
