package io.qawk.orchestrator.guard;

import java.util.Collection;
import java.util.function.Supplier;

import io.quarkus.arc.Arc;

/**
 * For the guard's benchmark: the wall time of the database reads a guard pass makes besides its transaction, each
 * asked alone as the pass asks it (the members of the work's targets, the foreign assignments, the metrics' counts).
 */
public final class GuardQueryTimes {

    private GuardQueryTimes() {
    }

    /** Milliseconds of each read (the best of {@code repeats}), and what it found. */
    public record Times(double holdingMs, int systems, double foreignMs, int foreign, double countsMs) {
    }

    public static Times measure(Collection<String> devices, int maxAssignments, int repeats) {
        ThreatStore store = Arc.container().instance(ThreatStore.class).get();
        int[] found = new int[2];
        double holding = best(repeats, () -> found[0] = store.systemsHolding(devices).size());
        double foreign = best(repeats, () -> found[1] = store.foreignAssignments(maxAssignments).size());
        double counts = best(repeats, () -> store.counts().size());
        return new Times(holding, found[0], foreign, found[1], counts);
    }

    private static double best(int repeats, Supplier<Integer> read) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < Math.max(1, repeats); i++) {
            long t0 = System.nanoTime();
            read.get();
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best / 1e6;
    }
}
