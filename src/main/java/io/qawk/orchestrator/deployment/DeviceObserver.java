package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.hawkbit.ActionOutcome;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.Fiql;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Asks hawkBit, in bulk, how the devices in flight are doing: one query per chunk of controller ids for presence and
 * update status, one per chunk and set for "installed it". Only devices that report an error are looked at one by
 * one, to confirm from their action. Works the same on hawkBit 0.3.x and 0.10+.
 */
@ApplicationScoped
public class DeviceObserver {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    EngineConfig config;

    /** A device given {@code setId}, and the hawkBit action that carries it when known. */
    public record InFlight(String controllerId, long setId, Long actionId) {
    }

    /**
     * Many devices of one set are first matched against the list of targets that still have it assigned and pending
     * (paged, 500 a request): those are still at it. Only the rest — devices that finished, failed or vanished since
     * the last pass — are looked at by controller id. So a pass costs about (devices in flight ÷ 500) + (devices
     * with news ÷ chunk) + (distinct sets) requests, not one per device.
     */
    public Map<String, Outcome> observe(Collection<InFlight> devices) {
        Map<String, Outcome> out = new HashMap<>();
        Map<Long, List<InFlight>> bySet = devices.stream().collect(Collectors.groupingBy(InFlight::setId));
        for (Map.Entry<Long, List<InFlight>> entry : bySet.entrySet()) {
            DistributionSetRef set = hawkbit.distributionSet(entry.getKey()).orElse(null);
            List<InFlight> news = entry.getValue();
            if (set != null && news.size() > config.observeChunk()) {
                Set<String> pending = new HashSet<>();
                hawkbit.forEachTargetPage(Fiql.and(Fiql.eq("assignedDS.name", set.name()),
                        Fiql.eq("assignedDS.version", set.version()), Fiql.eq("updateStatus", "pending")),
                        page -> page.forEach(t -> pending.add(t.controllerId())));
                news = new ArrayList<>();
                for (InFlight d : entry.getValue()) {
                    if (pending.contains(d.controllerId())) {
                        out.put(d.controllerId(), Outcome.RUNNING);
                    } else {
                        news.add(d);
                    }
                }
            }
            for (List<InFlight> chunk : chunks(news, config.observeChunk())) {
                observeChunk(set, chunk, out);
            }
        }
        return out;
    }

    private void observeChunk(DistributionSetRef set, List<InFlight> chunk, Map<String, Outcome> out) {
        List<String> ids = chunk.stream().map(InFlight::controllerId).toList();
        Map<String, HawkbitTarget> present = new HashMap<>();
        for (HawkbitTarget t : hawkbit.targets(Fiql.in("controllerId", ids))) {
            present.put(t.controllerId(), t);
        }
        List<String> inSync = new ArrayList<>();
        for (InFlight d : chunk) {
            HawkbitTarget t = present.get(d.controllerId());
            if (t == null) {
                out.put(d.controllerId(), Outcome.GONE);
            } else if ("in_sync".equalsIgnoreCase(t.updateStatus())) {
                inSync.add(d.controllerId());
            } else if ("error".equalsIgnoreCase(t.updateStatus())) {
                out.put(d.controllerId(), confirmFailure(d));
            } else {
                out.put(d.controllerId(), Outcome.RUNNING);
            }
        }
        if (inSync.isEmpty()) {
            return;
        }
        Set<String> installed = new HashSet<>();
        if (set == null) {
            // the set was deleted in hawkBit meanwhile: nobody can be found installing it
        } else {
            hawkbit.targets(Fiql.and(Fiql.in("controllerId", inSync), Fiql.eq("installedDS.name", set.name()),
                    Fiql.eq("installedDS.version", set.version()))).forEach(t -> installed.add(t.controllerId()));
        }
        for (InFlight d : chunk) {
            if (!inSync.contains(d.controllerId())) {
                continue;
            }
            if (installed.contains(d.controllerId())) {
                out.put(d.controllerId(), Outcome.SUCCEEDED);
            } else {
                // in sync on another set: the action was cancelled or replaced
                out.put(d.controllerId(), d.actionId() == null ? Outcome.RUNNING : fromAction(d));
            }
        }
    }

    private Outcome confirmFailure(InFlight d) {
        if (d.actionId() == null) {
            return Outcome.FAILED;
        }
        Outcome o = fromAction(d);
        return o == Outcome.SUCCEEDED ? Outcome.RUNNING : o;
    }

    private Outcome fromAction(InFlight d) {
        try {
            ActionOutcome o = hawkbit.actionOutcome(d.controllerId(), d.actionId());
            return switch (o) {
                case RUNNING -> Outcome.RUNNING;
                case SUCCEEDED -> Outcome.SUCCEEDED;
                case FAILED, CANCELED -> Outcome.FAILED;
            };
        } catch (TargetNotFoundException gone) {
            return Outcome.GONE;
        }
    }

    /** {@code all} cut into lists of at most {@code size}. */
    public static <T> List<List<T>> chunks(List<T> all, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += size) {
            out.add(all.subList(i, Math.min(all.size(), i + size)));
        }
        return out;
    }
}
