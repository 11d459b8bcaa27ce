package io.qawk.orchestrator.observation;

import io.qawk.orchestrator.hawkbit.ActionOutcome;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Asks hawkBit, in bulk, how the devices in flight are doing. Per set: the list of targets that still have it assigned
 * and pending (paged, 500 a request) says who is still at it when many are; of the rest, one query per chunk of
 * controller ids finds those that still have the set assigned, with their status (in sync: installed; pending: still
 * at it), and only those left after that (failed, taken over, vanished) are looked up by id, and the failed ones
 * confirmed from their action. Works the same on hawkBit 0.3.x and 0.10+.
 */
@ApplicationScoped
public class DeviceObserver {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    EngineConfig config;

    @Inject
    FanOut fanOut;

    /**
     * A pass costs about (devices in flight ÷ 500) + (devices with news ÷ ids per query) + (distinct sets) requests
     * when devices succeed, plus a few per chunk with failures; not one per device. Sets, then chunks, are asked side
     * by side ({@link FanOut}).
     */
    public Map<String, Outcome> observe(Collection<InFlight> devices) {
        return observe(devices, new ConcurrentHashMap<>());
    }

    /**
     * The same, and for devices that finished on their set, when hawkBit says they did ({@code reported}, filled side
     * by side: their targets' {@code installedAt} from the same bulk answers, where hawkBit named one; no request more).
     */
    public Map<String, Outcome> observe(Collection<InFlight> devices, Map<String, Instant> reported) {
        Map<String, Outcome> out = new ConcurrentHashMap<>();
        Map<Long, List<InFlight>> bySet = devices.stream().collect(Collectors.groupingBy(InFlight::setId));
        // first per set (side by side): its name and version, and who is still at it when many are in flight
        Map<Long, DistributionSetRef> sets = new ConcurrentHashMap<>();
        Map<Long, List<InFlight>> newsBySet = new ConcurrentHashMap<>();
        fanOut.runAll(bySet.entrySet().stream().<Runnable>map(entry -> () -> {
            DistributionSetRef set = hawkbit.knownDistributionSet(entry.getKey()).orElse(null);
            List<InFlight> news = entry.getValue();
            if (set != null && news.size() > config.observeChunk()) {
                Set<String> pending = hawkbit.pendingOn(set);
                news = new ArrayList<>();
                for (InFlight d : entry.getValue()) {
                    if (pending.contains(d.controllerId())) {
                        out.put(d.controllerId(), Outcome.RUNNING);
                    } else {
                        news.add(d);
                    }
                }
            }
            if (set != null) {
                sets.put(entry.getKey(), set);
            }
            newsBySet.put(entry.getKey(), news);
        }).toList());
        // then every chunk of every set, side by side
        List<Runnable> chunks = new ArrayList<>();
        newsBySet.forEach((setId, news) -> {
            for (List<InFlight> chunk : chunks(news)) {
                chunks.add(() -> observeChunk(sets.get(setId), chunk, out, reported));
            }
        });
        fanOut.runAll(chunks);
        return new HashMap<>(out);
    }

    /** When hawkBit says {@code t} installed its set, if it named a time. */
    private static void report(HawkbitTarget t, Map<String, Instant> reported) {
        if (t != null && t.installedAt() != null) {
            reported.put(t.controllerId(), t.installedAt());
        }
    }

    /** {@code devices} cut into groups that fit one query by controller id. */
    private List<List<InFlight>> chunks(List<InFlight> devices) {
        return HawkbitGateway.idChunks(devices, InFlight::controllerId, config.observeChunk(), config.observeQueryLength());
    }

    private void observeChunk(DistributionSetRef set, List<InFlight> chunk, Map<String, Outcome> out,
                              Map<String, Instant> reported) {
        List<InFlight> rest = chunk;
        if (set != null) {
            // one question: those that still have our set assigned, done (in sync) or at it (pending); the usual answer
            Map<String, HawkbitTarget> ours = hawkbit.assignedTargets(set,
                    chunk.stream().map(InFlight::controllerId).toList());
            rest = new ArrayList<>();
            for (InFlight d : chunk) {
                HawkbitTarget t = ours.get(d.controllerId());
                if (t != null && t.inSync()) {
                    out.put(d.controllerId(), Outcome.SUCCEEDED);
                    report(t, reported);
                } else if (t != null && t.pending()) {
                    out.put(d.controllerId(), Outcome.RUNNING);
                } else {
                    rest.add(d); // failed, taken over, gone, or in a state the rest of this method reads closely
                }
            }
            if (rest.isEmpty()) {
                return;
            }
        }
        Map<String, HawkbitTarget> present = new HashMap<>();
        for (HawkbitTarget t : hawkbit.targetsById(rest.stream().map(InFlight::controllerId).toList())) {
            present.put(t.controllerId(), t);
        }
        // in sync by now, but not found installing the set a moment ago: most finished in between (a busy hawkBit
        // answers in seconds); ask once more for those before looking at actions one by one
        List<String> inSync = rest.stream().map(InFlight::controllerId)
                .filter(id -> present.containsKey(id) && present.get(id).inSync()).toList();
        Set<String> installedSince = new HashSet<>();
        if (set != null && !inSync.isEmpty()) {
            installedSince.addAll(hawkbit.installedOn(set, inSync));
        }
        // still pending, but is it still ours? someone else's assignment in hawkBit cancels ours and takes its place
        List<String> busy = rest.stream().map(InFlight::controllerId).filter(id -> present.containsKey(id)
                && present.get(id).pending()).toList();
        Set<String> stillOurs = new HashSet<>();
        if (set != null && !busy.isEmpty()) {
            stillOurs.addAll(hawkbit.assignedTo(set, busy));
        }
        for (InFlight d : rest) {
            if (busy.contains(d.controllerId()) && set != null && !stillOurs.contains(d.controllerId())) {
                out.put(d.controllerId(), takenOverOrNot(d));
                continue;
            }
            if (installedSince.contains(d.controllerId())) {
                out.put(d.controllerId(), Outcome.SUCCEEDED);
                report(present.get(d.controllerId()), reported); // in sync on our set: installedAt is ours
                continue;
            }
            HawkbitTarget t = present.get(d.controllerId());
            if (t == null) {
                out.put(d.controllerId(), Outcome.GONE);
            } else if (t.inError()) {
                out.put(d.controllerId(), confirmFailure(d));
            } else if (t.inSync()) {
                // in sync, but not on this set (or the set was deleted in hawkBit): the action was cancelled or replaced
                out.put(d.controllerId(), d.actionId() == null ? Outcome.RUNNING : fromAction(d));
            } else {
                out.put(d.controllerId(), Outcome.RUNNING);
            }
        }
    }

    /**
     * A device that looked pending on something else than our set a moment ago. Taken over only when hawkBit now
     * names another set assigned to it and our action did not end on its own: a device that failed in between
     * (hawkBit 0.3.0M7 then shows its old set as assigned) failed, it was not taken over.
     */
    private Outcome takenOverOrNot(InFlight d) {
        try {
            Optional<DistributionSetRef> assigned = hawkbit.assignedSet(d.controllerId());
            ActionOutcome ours = d.actionId() == null ? null : hawkbit.actionOutcome(d.controllerId(), d.actionId());
            if (ours == ActionOutcome.FAILED) {
                return Outcome.FAILED;
            }
            if (ours == ActionOutcome.SUCCEEDED) {
                return Outcome.SUCCEEDED;
            }
            if (assigned.isPresent() && assigned.get().id() != d.setId() && ours != null) {
                return Outcome.TAKEN_OVER; // ours still open (being cancelled) or cancelled for the other set
            }
            return ours == ActionOutcome.CANCELED ? Outcome.FAILED : Outcome.RUNNING;
        } catch (TargetNotFoundException gone) {
            return Outcome.GONE;
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
}
