package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.observation.Outcome;
import io.qawk.orchestrator.deployment.plan.PlanInput;
import io.qawk.orchestrator.deployment.plan.RunPlanner;
import io.qawk.orchestrator.deployment.plan.VerifyWords;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Asks hawkBit whether devices match their verification or health queries, in bulk: one question per distinct query
 * and chunk of controller ids ({@code controllerId=in=(…);(query)}), so a pass costs (devices ÷ chunk) requests per
 * query, never one per device. hawkBit evaluates the query, exactly as it evaluates a component's match (the same
 * operators, wildcards and case rules). Only a device about to fail verification has its attributes read (one request
 * each, once), for the words of what it reports instead.
 */
@ApplicationScoped
public class DeviceVerifier {

    /** The least room for ids left in a request next to a long query. */
    static final int MIN_ID_ROOM = 300;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    EngineConfig config;

    /** A device and the query it is to match. */
    public record Ask(String controllerId, String query) {
    }

    /**
     * Whether each device matches its query now; throws what the gateway throws when hawkBit cannot be asked. A query
     * hawkBit refuses as a bad request (a field or operator this hawkBit does not know, though the grammar allows it)
     * matches no device: its devices are put in {@code refused} with hawkBit's words, so that they fail (or their
     * system is unhealthy) saying why, instead of the deployment stalling on a question hawkBit will never answer.
     */
    public Map<String, Boolean> matches(Collection<Ask> asks, Map<String, String> refused) {
        Map<String, List<String>> byQuery = new LinkedHashMap<>();
        asks.forEach(a -> byQuery.computeIfAbsent(a.query(), q -> new ArrayList<>()).add(a.controllerId()));
        Map<String, Boolean> out = new HashMap<>();
        byQuery.forEach((query, ids) -> {
            int room = Math.max(MIN_ID_ROOM, config.observeQueryLength() - HawkbitGateway.encodedLength(query));
            for (List<String> chunk : HawkbitGateway.idChunks(ids, id -> id, config.observeChunk(), room)) {
                Set<String> yes;
                try {
                    yes = hawkbit.matching(query, chunk);
                } catch (HawkbitRequestException bad) {
                    if (bad.status() != 400) {
                        throw bad; // Qawk's own access to hawkBit, not the query: no device is concerned
                    }
                    chunk.forEach(id -> refused.put(id, "hawkBit refused the query: " + bad.statusAndReason()));
                    yes = Set.of();
                }
                Set<String> matching = yes;
                chunk.forEach(id -> out.put(id, matching.contains(id)));
            }
        });
        return out;
    }

    /**
     * The devices whose verification hawkBit is asked about this pass: those waiting to verify, and those it has just
     * seen finish, so that a device reporting at once is done in the same pass.
     */
    static List<Ask> toVerify(DeploymentSnapshot snap, Map<String, Outcome> outcomes) {
        List<Ask> out = new ArrayList<>();
        for (DeploymentSnapshot.PlannableRun run : snap.runsToPlan()) {
            for (PlanInput.Device d : run.devices()) {
                boolean finishing = d.state() == DeviceState.ASSIGNED && outcomes.get(d.controllerId()) == Outcome.SUCCEEDED;
                if (d.verify() != null && (d.state() == DeviceState.VERIFYING || finishing)) {
                    out.add(new Ask(d.controllerId(), d.verify()));
                }
            }
        }
        return out;
    }

    /** The devices that do not match their verification query and will have run out of time by {@code soon}. */
    static List<Ask> failing(DeploymentSnapshot snap, Map<String, Boolean> verified, Instant soon) {
        List<Ask> out = new ArrayList<>();
        for (DeploymentSnapshot.PlannableRun run : snap.runsToPlan()) {
            for (PlanInput.Device d : run.devices()) {
                if (Boolean.FALSE.equals(verified.get(d.controllerId())) && d.verifyTimedOut(soon, snap.settings().verifyTimeout())) {
                    out.add(new Ask(d.controllerId(), d.verify()));
                }
            }
        }
        return out;
    }

    /** What each of these devices reports instead of what its query asks for (see {@link VerifyWords}). */
    public Map<String, String> reports(Collection<Ask> failing) {
        Map<String, String> out = new HashMap<>();
        for (Ask a : failing) {
            try {
                String words = VerifyWords.reports(a.query(), hawkbit.attributes(a.controllerId()));
                if (words != null) {
                    out.put(a.controllerId(), words);
                }
            } catch (TargetNotFoundException gone) {
                out.put(a.controllerId(), "its target was deleted in hawkBit");
            }
        }
        return out;
    }
}
