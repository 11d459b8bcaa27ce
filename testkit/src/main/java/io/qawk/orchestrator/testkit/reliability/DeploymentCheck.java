package io.qawk.orchestrator.testkit.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks one finished deployment against hawkBit: each run ended as expected, each device runs the right set, its
 * photograph holds what it ran before, and hawkBit's actions created since {@code baseline} are exactly the
 * assignments the device's final state implies -- forward set once, and for a rolled-back system the photographed
 * set once after it. Anything else (a set assigned twice, a set from nowhere) is reported.
 */
public final class DeploymentCheck {

    /**
     * Problems found, how many hawkBit actions were looked at, how many of those were duplicate assignments, and how
     * many devices run neither their manifest's set nor their photographed set at the end.
     */
    public record Result(List<String> problems, int actionsChecked, int duplicates, int devices, int onNeitherSet) {
    }

    private DeploymentCheck() {
    }

    /**
     * @param ranBefore     per device, the set it ran when the deployment started (what its photograph must say)
     * @param failing       systems (with prefix) expected to be rolled back; every other one must succeed
     */
    public static Result check(QawkApi api, RelLanes lanes, int deploymentId, Map<String, Long> baseline,
                               Map<String, Long> ranBefore, Set<String> failing) {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        int duplicates = 0;
        int devices = 0;
        int onNeither = 0;
        for (Map<String, Object> run : api.runs(deploymentId)) {
            String system = (String) run.get("system");
            String state = (String) run.get("state");
            String expected = failing.contains(system) ? "ROLLED_BACK" : "SUCCEEDED";
            if (!expected.equals(state)) {
                problems.add(system + ": run is " + state + ", expected " + expected + " (" + run.get("reason") + ")");
            }
            for (Map<String, Object> d : QawkApi.devices(run)) {
                devices++;
                String id = (String) d.get("controllerId");
                String dState = (String) d.get("state");
                long to = ((Number) d.get("toSetId")).longValue();
                Long from = d.get("fromSetId") == null ? null : ((Number) d.get("fromSetId")).longValue();
                if (!Objects.equals(from, ranBefore.get(id))) {
                    problems.add(id + ": photographed on set " + from + " but ran " + ranBefore.get(id));
                }
                List<RelLanes.Act> acts = lanes.actions(id).stream().filter(a -> a.id() > baseline.getOrDefault(id, 0L)).toList();
                checked += acts.size();
                List<Long> sets = acts.stream().map(RelLanes.Act::setId).toList();
                long forward = sets.stream().filter(s -> s == to).count();
                long back = from == null ? 0 : sets.stream().filter(s -> s.equals(from)).count();
                if (forward > 1 || back > 1) {
                    duplicates++;
                    problems.add(id + ": DUPLICATE assignment: sets " + sets + " (forward " + to + ", back " + from + ")");
                }
                sets.stream().filter(s -> s != to && !s.equals(from)).forEach(s ->
                        problems.add(id + ": assigned set " + s + " that is neither its manifest's nor its photograph's"));
                List<Long> expectedSets = switch (dState) {
                    case "SUCCEEDED" -> List.of(to);
                    case "ROLLED_BACK" -> List.of(to, from);
                    case "NOT_SENT", "ALREADY_ON_SET" -> List.of();
                    default -> null;
                };
                if (expectedSets == null) {
                    problems.add(id + ": ended in device state " + dState + " (" + d.get("detail") + ")");
                } else if (!expectedSets.equals(sets)) {
                    problems.add(id + ": " + dState + " but hawkBit holds the assignments " + sets + ", expected "
                            + expectedSets);
                }
                long installed = lanes.installed(id);
                if (installed != to && (from == null || installed != from)) {
                    onNeither++;
                }
                long shouldRun = "SUCCEEDED".equals(dState) || "ALREADY_ON_SET".equals(dState) ? to
                        : from == null ? -1 : from;
                if (installed != shouldRun) {
                    problems.add(id + ": runs set " + installed + " but should run " + shouldRun + " (" + dState + ")");
                }
            }
        }
        return new Result(problems, checked, duplicates, devices, onNeither);
    }
}
