package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.plan.RunPlanner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The assignments a pass decided and stored as intents, to send once their transactions committed; and whose. */
final class Outbox {

    private final List<RunPlanner.Assign> assignments = new ArrayList<>();
    private final Map<String, Long> runOfDevice = new HashMap<>();

    /** The assignments of several transactions (each by run), in their order, as one outbox. */
    @SafeVarargs
    static Outbox of(List<Map<Long, List<RunPlanner.Assign>>>... steps) {
        Outbox all = new Outbox();
        for (List<Map<Long, List<RunPlanner.Assign>>> step : steps) {
            step.forEach(byRun -> byRun.forEach(all::add));
        }
        return all;
    }

    void add(long runId, List<RunPlanner.Assign> decided) {
        assignments.addAll(decided);
        decided.forEach(a -> runOfDevice.put(a.controllerId(), runId));
    }

    void addAll(Outbox other) {
        assignments.addAll(other.assignments);
        runOfDevice.putAll(other.runOfDevice);
    }

    List<RunPlanner.Assign> assignments() {
        return assignments;
    }

    /** The run a device's assignment is for, as the store records hawkBit's answers by run. */
    Map<String, Long> runOfDevice() {
        return runOfDevice;
    }

    boolean isEmpty() {
        return assignments.isEmpty();
    }
}
