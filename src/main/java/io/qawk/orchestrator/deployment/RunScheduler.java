package io.qawk.orchestrator.deployment;

import java.util.Comparator;
import java.util.List;

/**
 * Which pending systems a deployment starts now: in their sequence (centres in the deployment's order, then by
 * system name), never more under way than {@code maxParallel}, none once more systems failed than {@code maxFailed}
 * allows, and with {@code byCentre} only from the first centre that still has systems not done.
 */
final class RunScheduler {

    private RunScheduler() {
    }

    static List<DeploymentPhase.RunSummary> toStart(DeploymentPhase phase, int maxParallel, int maxFailed,
                                                    boolean byCentre, List<DeploymentPhase.RunSummary> runs) {
        if (phase != DeploymentPhase.RUNNING || DeploymentPhase.failures(runs) > maxFailed) {
            return List.of();
        }
        long underWay = runs.stream().filter(r -> r.state().underWay()).count();
        long slots = maxParallel - underWay;
        if (slots <= 0) {
            return List.of();
        }
        List<DeploymentPhase.RunSummary> bySeq = runs.stream()
                .sorted(Comparator.comparingInt(DeploymentPhase.RunSummary::seq)).toList();
        String centre = null;
        if (byCentre) {
            centre = bySeq.stream().filter(r -> !r.state().terminal()).map(r -> String.valueOf(r.group()))
                    .findFirst().orElse(null);
        }
        String onlyCentre = centre;
        return bySeq.stream()
                .filter(r -> r.state() == RunState.PENDING)
                .filter(r -> onlyCentre == null || onlyCentre.equals(String.valueOf(r.group())))
                .limit(slots)
                .toList();
    }
}
