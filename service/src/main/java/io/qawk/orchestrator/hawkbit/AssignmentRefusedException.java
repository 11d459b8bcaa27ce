package io.qawk.orchestrator.hawkbit;

import java.util.List;

/**
 * hawkBit refused to assign a set to some or all of the targets sent ({@link HawkbitAnswer#REFUSED}: the set was
 * deleted or is incomplete, the targets' type does not take it, a quota …). Sending the same again will not help.
 * The targets of batches hawkBit did accept are assigned: {@link #result()} holds them.
 */
public class AssignmentRefusedException extends HawkbitRequestException {

    /** These targets were refused, with hawkBit's status and reason ({@code 404 distribution set not found}). */
    public record Refusal(List<String> controllerIds, int status, String statusAndReason) {
        public Refusal {
            controllerIds = List.copyOf(controllerIds);
        }
    }

    private final String setLabel;
    private final AssignmentResult result;
    private final List<Refusal> refusals;

    public AssignmentRefusedException(String setLabel, AssignmentResult result, List<Refusal> refusals) {
        super(refusals.get(0).status(), null, null, "hawkBit refused " + setLabel + " for "
                + refusals.stream().mapToInt(r -> r.controllerIds().size()).sum() + " target(s): "
                + refusals.get(0).statusAndReason());
        this.setLabel = setLabel;
        this.result = result;
        this.refusals = List.copyOf(refusals);
    }

    /** {@code name:version} of the set, or its id when hawkBit does not know it. */
    public String setLabel() {
        return setLabel;
    }

    /** What hawkBit did assign (batches it accepted). */
    public AssignmentResult result() {
        return result;
    }

    public List<Refusal> refusals() {
        return refusals;
    }

    @Override
    public HawkbitAnswer answer() {
        return HawkbitAnswer.REFUSED;
    }
}
