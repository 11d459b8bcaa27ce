package io.qawk.orchestrator.hawkbit;

import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Bulk assignment of a set to targets ({@link HawkbitGateway#assign}): checks the set, sends batches, sums hawkBit's
 * answers, names refused batches and the targets hawkBit dropped silently.
 */
final class Assignments {

    private static final Logger LOG = Logger.getLogger(Assignments.class);

    /** Controller ids per existence query when finding dropped targets (keeps the URL short). */
    static final int EXISTENCE_CHUNK = 100;

    private final HawkbitClient client;
    private final HawkbitConfig config;
    private final Function<Long, Optional<DistributionSetRef>> setById;
    /** Which of these ids hawkBit knows (lower case); at most {@link #EXISTENCE_CHUNK} ids at a time. */
    private final Function<List<String>, Set<String>> knownAmong;

    Assignments(HawkbitClient client, HawkbitConfig config, Function<Long, Optional<DistributionSetRef>> setById,
            Function<List<String>, Set<String>> knownAmong) {
        this.client = client;
        this.config = config;
        this.setById = setById;
        this.knownAmong = knownAmong;
    }

    AssignmentResult assign(long distributionSetId, Collection<String> controllerIds) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String id : controllerIds) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("blank controllerId in assignment");
            }
            distinct.add(id);
        }
        if (distinct.isEmpty()) {
            return AssignmentResult.empty();
        }
        List<String> ids = List.copyOf(distinct);
        DistributionSetRef set = setById.apply(distributionSetId).orElseThrow(() -> new AssignmentRefusedException(
                "set " + distributionSetId, AssignmentResult.empty(),
                List.of(new AssignmentRefusedException.Refusal(ids, 404, "404 distribution set not found"))));
        if (!set.complete()) {
            throw new AssignmentRefusedException(set.label(), AssignmentResult.empty(),
                    List.of(new AssignmentRefusedException.Refusal(ids, 409, "409 distribution set is incomplete")));
        }
        int batchSize = Math.max(1, config.assignBatchSize());
        AssignmentResult sum = AssignmentResult.empty();
        List<AssignmentRefusedException.Refusal> refusals = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += batchSize) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + batchSize));
            try {
                sum = sum.plus(assignBatch(set, batch));
            } catch (HawkbitRequestException e) {
                if (e.answer() != HawkbitAnswer.REFUSED) {
                    throw e;
                }
                refusals.add(new AssignmentRefusedException.Refusal(batch, e.status(), e.statusAndReason()));
            }
        }
        if (!refusals.isEmpty()) {
            throw new AssignmentRefusedException(set.label(), sum, refusals);
        }
        if (sum.accountedFor() != ids.size()) {
            List<String> unknown = unknownAmong(ids);
            int dropped = ids.size() - sum.accountedFor();
            throw new AssignmentIncompleteException("hawkBit accounted for " + sum.accountedFor() + " of "
                    + ids.size() + " targets assigned to " + set.label() + ": " + dropped + " dropped"
                    + (unknown.isEmpty() ? "" : "; unknown to hawkBit: " + preview(unknown)),
                    sum, ids.size(), unknown);
        }
        return sum;
    }

    private AssignmentResult assignBatch(DistributionSetRef set, List<String> ids) {
        String type = config.assignmentType().wireName();
        List<HawkbitShapes.AssignTarget> body = ids.stream().map(id -> new HawkbitShapes.AssignTarget(id, type))
                .toList();
        String operation = "assign";
        HawkbitClient.Reply reply = client.call(operation, api -> api.assign(set.id(), body));
        HawkbitShapes.AssignmentAnswer answer = client.okValue(operation, reply, null,
                HawkbitShapes.AssignmentAnswer.class);
        if (answer.assigned() == null || answer.alreadyAssigned() == null) {
            throw HawkbitClient.malformed(operation, "no assigned/alreadyAssigned counts");
        }
        List<Long> actionIds = new ArrayList<>();
        Map<String, Long> byTarget = new HashMap<>();
        for (HawkbitShapes.ActionId action : answer.assignedActions() == null ? List.<HawkbitShapes.ActionId>of()
                : answer.assignedActions()) {
            if (action != null && action.id() != null) {
                actionIds.add(action.id());
                String self = action.links() == null || action.links().self() == null ? null
                        : action.links().self().href();
                HawkbitVersions.targetOfActionLink(self).ifPresent(target -> byTarget.put(target, action.id()));
            }
        }
        return new AssignmentResult(answer.assigned(), answer.alreadyAssigned(), HawkbitVersions.totalOf(answer),
                actionIds, byTarget);
    }

    /** Which of {@code ids} hawkBit does not know; empty if that cannot be found out now. */
    private List<String> unknownAmong(List<String> ids) {
        try {
            Set<String> existing = new HashSet<>();
            for (int from = 0; from < ids.size(); from += EXISTENCE_CHUNK) {
                existing.addAll(knownAmong.apply(ids.subList(from, Math.min(ids.size(), from + EXISTENCE_CHUNK))));
            }
            return ids.stream().filter(id -> !existing.contains(id.toLowerCase(Locale.ROOT))).toList();
        } catch (HawkbitException e) {
            LOG.warnf("could not find out which assigned targets hawkBit dropped: %s", e.getMessage());
            return List.of();
        }
    }

    private static String preview(List<String> ids) {
        return ids.size() <= 20 ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, 20)) + " … (" + ids.size() + " in all)";
    }
}
