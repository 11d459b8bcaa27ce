package io.qawk.orchestrator.hawkbit;

import org.jboss.logging.Logger;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every difference between hawkBit versions that Qawk meets, in one place, each with the versions it applies to
 * (checked against the source at the release tags 0.3.0M7 … 1.1.0 and master 67ca1c43, and by hand on a real
 * 0.3.0M7). Everything else in this package is the same on all of them: paging, FIQL fields, update status values
 * ({@link HawkbitTarget}), set and target shapes, the 204 of an absent installed or assigned set.
 */
final class HawkbitVersions {

    private static final Logger LOG = Logger.getLogger(HawkbitVersions.class);

    private HawkbitVersions() {
    }

    // ---------------------------------------------------------------- action outcome

    /**
     * Where an action stands, on any version:
     * <ul>
     * <li>0.10.0 and later (master too): {@code active} is present; {@code status} holds the real value
     * ({@code running}, {@code finished}, {@code error}, {@code canceled}, {@code downloaded}, {@code canceling},
     * {@code wait_for_confirmation} …);</li>
     * <li>up to 0.9.x: no {@code active}; {@code status} is only {@code pending} or {@code finished};</li>
     * <li>0.3.0M8 … 0.9.x: a closed action's result is in {@code detailStatus};</li>
     * <li>0.3.0M7: it is only in the newest entry of the status history ({@code …/actions/{id}/status}), which
     * {@code newestHistoryType} reads (lower case, by {@code reportedAt}).</li>
     * </ul>
     */
    static ActionOutcome outcome(HawkbitShapes.Action action, Supplier<String> newestHistoryType) {
        if (action.status() == null) {
            throw HawkbitClient.malformed("actions", "action without status");
        }
        String status = action.status().toLowerCase(Locale.ROOT);
        if (action.active() != null) { // 0.10+
            return action.active() ? ActionOutcome.RUNNING : closedOutcome(status);
        }
        if (!"finished".equals(status)) { // <= 0.9: pending = still open
            return ActionOutcome.RUNNING;
        }
        if (action.detailStatus() != null) { // 0.3.0M8 .. 0.9
            return closedOutcome(action.detailStatus().toLowerCase(Locale.ROOT));
        }
        return closedOutcome(newestHistoryType.get()); // 0.3.0M7
    }

    /** The newest entry of a status history (0.3.0M7): latest {@code reportedAt}, then highest id. */
    static String newestType(List<HawkbitShapes.ActionStatus> history) {
        HawkbitShapes.ActionStatus newest = null;
        for (HawkbitShapes.ActionStatus entry : history) {
            if (newest == null || isNewer(entry, newest)) {
                newest = entry;
            }
        }
        if (newest == null || newest.type() == null) {
            throw HawkbitClient.malformed("action_status", "closed action without status history");
        }
        return newest.type().toLowerCase(Locale.ROOT);
    }

    private static boolean isNewer(HawkbitShapes.ActionStatus a, HawkbitShapes.ActionStatus b) {
        long at = a.reportedAt() == null ? 0 : a.reportedAt();
        long bt = b.reportedAt() == null ? 0 : b.reportedAt();
        long aid = a.id() == null ? 0 : a.id();
        long bid = b.id() == null ? 0 : b.id();
        return at != bt ? at > bt : aid > bid;
    }

    /**
     * A closed action's status (0.10+) or detail status / history type (older): the same names on every version.
     * {@code downloaded} closes a download-only assignment (0.3.0M8+) and counts as success.
     */
    static ActionOutcome closedOutcome(String status) {
        switch (status) {
            case "finished":
            case "downloaded":
                return ActionOutcome.SUCCEEDED;
            case "canceled":
                return ActionOutcome.CANCELED;
            case "error":
                return ActionOutcome.FAILED;
            default:
                // closed without a recognisable result: never report it as success
                LOG.debugf("closed hawkBit action with unexpected status %s counted as failed", status);
                return ActionOutcome.FAILED;
        }
    }

    // ---------------------------------------------------------------- action list entries

    /**
     * The set of an action, from {@code _links.distributionset.href} ({@code …/distributionsets/42}). Up to 1.x the
     * list entries carry that link; on master they carry only {@code _links.self}, so this is null there and callers
     * read the single action or the target's assigned/installed set instead.
     */
    static Long setIdOf(HawkbitShapes.Action action) {
        HawkbitShapes.Links links = action.links();
        if (links == null || links.distributionset() == null || links.distributionset().href() == null) {
            return null;
        }
        String href = links.distributionset().href();
        int slash = href.lastIndexOf('/');
        if (slash < 0 || slash == href.length() - 1) {
            return null;
        }
        String last = href.substring(slash + 1);
        int end = 0;
        while (end < last.length() && Character.isDigit(last.charAt(end))) {
            end++;
        }
        try {
            return end == 0 ? null : Long.valueOf(last.substring(0, end));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- assignment answers

    /**
     * The controller id in an assignment answer's action link {@code …/targets/{controllerId}/actions/{id}}
     * ({@code assignedActions[]._links.self}, 0.3.0M7 through master); empty when the link has another form, as on
     * servers whose answer lists only ids: then the caller learns the action from the target's action list.
     */
    static Optional<String> targetOfActionLink(String href) {
        if (href == null) {
            return Optional.empty();
        }
        int t = href.lastIndexOf("/targets/");
        int a = href.lastIndexOf("/actions/");
        if (t < 0 || a <= t) {
            return Optional.empty();
        }
        return Optional.of(URLDecoder.decode(href.substring(t + "/targets/".length(), a), StandardCharsets.UTF_8));
    }

    /**
     * {@code total} of an assignment answer; every version sends it, but if one did not, assigned + alreadyAssigned
     * is what it would say.
     */
    static int totalOf(HawkbitShapes.AssignmentAnswer answer) {
        return answer.total() != null ? answer.total() : answer.assigned() + answer.alreadyAssigned();
    }

    // ---------------------------------------------------------------- what work outside Qawk a version shows

    /** The tenant setting of rollout approval: the same key on 0.3.0M7, 1.1.0 and master. */
    static final String ROLLOUT_APPROVAL = "rollout.approval.enabled";

    /**
     * Whether hawkBit keeps auto-assignments as objects of their own, from its answer to
     * {@code GET /rest/v1/autoassignments}: 0.3.0M7 and 1.1.0 have no such resource (404; their auto-assignments are
     * target filters' {@code autoAssignDistributionSet}), master has (2xx; {@code MgmtAutoAssignmentRestApi}, with its
     * own approval, start and pause); any other answer (403 without {@code READ_AUTO_ASSIGNMENT}) does not tell.
     */
    static Optional<Boolean> autoAssignmentObjects(int status) {
        if (status >= 200 && status < 300) {
            return Optional.of(true);
        }
        if (status == 404 || status == 405) {
            return Optional.of(false);
        }
        return Optional.empty();
    }
}
