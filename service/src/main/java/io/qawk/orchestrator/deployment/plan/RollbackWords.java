package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.plan.PlanInput.Device;
import io.qawk.orchestrator.deployment.plan.RunPlanner.DeviceChange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The words of a run that went back, as operators were promised them ({@code at order 1: … -- rolled back: 2 of 2
 * devices on their previous set again}): the planner's words, beside {@link VerifyWords}. Pure.
 */
public final class RollbackWords {

    private RollbackWords() {
    }

    /**
     * The reason a run that went back carries, in the words operators were promised; {@code manualReason}: for a
     * failure, the words of one no device reported (the soak's), which then lead the reason.
     */
    static String reason(RollbackCause cause, String manualReason, Integer failedOrder, List<Device> devices,
                         Map<String, DeviceChange> changes) {
        long back = 0;
        long tried = 0;
        long nothingBefore = 0;
        List<String> notBack = new ArrayList<>();
        TreeSet<Integer> keptOrders = new TreeSet<>();
        long kept = 0;
        for (Device d : devices) {
            DeviceState s = changes.containsKey(d.controllerId()) ? changes.get(d.controllerId()).state() : d.state();
            if (s == DeviceState.ROLLED_BACK) {
                back++;
                tried++;
            } else if (s == DeviceState.ROLLBACK_FAILED) {
                tried++;
                notBack.add(d.controllerId());
            } else if (s == DeviceState.LEFT_AS_IS) {
                nothingBefore++;
            } else if (s == DeviceState.KEPT) {
                kept++;
                keptOrders.add(d.order());
            }
        }
        long reported = 0;
        List<String> named = new ArrayList<>();
        for (Device d : devices) {
            DeviceChange c = changes.get(d.controllerId());
            if (d.failed() || c != null && c.failed()) {
                String failure = c != null && c.failure() != null ? c.failure() : d.failure();
                if (failure == null) {
                    reported++;
                } else if (!named.contains(failure)) {
                    named.add(failure);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        if (cause == RollbackCause.MANUAL) {
            sb.append("rolled back by hand");
            if (manualReason != null && !manualReason.isBlank()) {
                sb.append(" (").append(manualReason).append(')');
            }
        } else if (manualReason != null && !manualReason.isBlank()) {
            sb.append(manualReason); // the words of a failure no device reported: unhealthy during the soak
            if (!named.isEmpty()) {
                sb.append("; ").append(String.join("; ", named));
            }
        } else if (named.isEmpty()) {
            sb.append(reported).append(" device(s) failed at order ").append(failedOrder);
        } else {
            sb.append("at order ").append(failedOrder).append(": ");
            if (reported > 0) {
                sb.append(reported).append(" device(s) failed; ");
            }
            sb.append(String.join("; ", named));
        }
        sb.append(" -- rolled back: ").append(back).append(" of ").append(tried)
                .append(" devices on their previous set again");
        if (nothingBefore > 0) {
            sb.append(", ").append(nothingBefore).append(" ran nothing before and were left as they are");
        }
        if (!notBack.isEmpty()) {
            notBack.sort(Comparator.naturalOrder());
            sb.append("; FAILED TO GO BACK: ").append(String.join(", ", notBack));
        }
        if (kept > 0) {
            sb.append("; order ").append(keptOrders.stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    .append(" not sent back: ").append(kept)
                    .append(" device(s) kept on their new set, a state the update passed through");
        }
        return sb.toString();
    }
}
