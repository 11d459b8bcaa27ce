package io.qawk.orchestrator.hawkbit;

import java.util.List;

/**
 * hawkBit accounted for fewer targets than were sent (it drops unknown targets silently). The targets it did
 * accept are assigned: {@link #result()} says how many and holds their action ids.
 */
public class AssignmentIncompleteException extends HawkbitException {

    private final AssignmentResult result;
    private final int sent;
    private final List<String> unknownTargets;

    public AssignmentIncompleteException(String message, AssignmentResult result, int sent,
            List<String> unknownTargets) {
        super(message, null);
        this.result = result;
        this.sent = sent;
        this.unknownTargets = List.copyOf(unknownTargets);
    }

    /** What hawkBit did assign. */
    public AssignmentResult result() {
        return result;
    }

    /** Distinct targets sent. */
    public int sent() {
        return sent;
    }

    /** How many hawkBit dropped: sent - (assigned + alreadyAssigned). */
    public int dropped() {
        return sent - result.accountedFor();
    }

    /** The sent targets that hawkBit does not know (may be fewer than {@link #dropped()} if others vanished too). */
    public List<String> unknownTargets() {
        return unknownTargets;
    }
}
