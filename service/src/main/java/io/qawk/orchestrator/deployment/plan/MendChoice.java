package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.rules.CompatibilityRules;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which manifest mends a broken system: the nearest mix its rules allow. Pure: the caller gives the system's way to
 * each manifest of its type ({@link SystemPath.Device}s, from what its devices run now) and the manifest it last ran
 * successfully. A manifest mends the system when {@link SystemPath#judge} takes it (not held): during its first order
 * that changes something only the rules already broken stay broken, and every later state keeps every rule.
 * <ol>
 * <li>The manifest the system last ran, when it mends it: going back to what it was is the smallest surprise.</li>
 * <li>Otherwise the manifest that mends it and changes the fewest devices (then the fewest components, then the
 *     newest, by id): its destination differs least from what the system runs.</li>
 * </ol>
 */
public final class MendChoice {

    private MendChoice() {
    }

    /** A manifest of the system's type and the system's way to it. */
    public record Candidate(long manifestId, String name, List<SystemPath.Device> way) {

        /** Devices whose set the manifest changes. */
        long devicesChanged() {
            return way.stream().filter(SystemPath.Device::changes).count();
        }

        long componentsChanged() {
            return way.stream().filter(SystemPath.Device::changes).map(SystemPath.Device::component).distinct().count();
        }
    }

    /** The manifest taken, and the verdict of the system's way to it (it names the rule it mends). */
    public record Choice(Candidate manifest, SystemPath.Verdict verdict, boolean lastRun) {
    }

    private static final Comparator<Candidate> NEAREST = Comparator.comparingLong(Candidate::devicesChanged)
            .thenComparingLong(Candidate::componentsChanged)
            .thenComparing(Comparator.comparingLong(Candidate::manifestId).reversed());

    /**
     * The manifest that mends the system, {@code lastRun} (a manifest id, or null when it never ran one to the end)
     * first; empty when none does.
     */
    public static Optional<Choice> choose(CompatibilityRules rules, Long lastRun, List<Candidate> candidates) {
        if (lastRun != null) {
            for (Candidate c : candidates) {
                if (c.manifestId() == lastRun) {
                    SystemPath.Verdict v = SystemPath.judge(rules, c.way());
                    if (mends(v)) {
                        return Optional.of(new Choice(c, v, true));
                    }
                }
            }
        }
        return candidates.stream().filter(c -> !Objects.equals(c.manifestId(), lastRun)).sorted(NEAREST)
                .map(c -> new Choice(c, SystemPath.judge(rules, c.way()), false))
                .filter(choice -> mends(choice.verdict())).findFirst();
    }

    private static boolean mends(SystemPath.Verdict v) {
        return !v.isHeld() && v.mends() != null;
    }
}
