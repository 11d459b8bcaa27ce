package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.rules.Breach;
import io.qawk.orchestrator.rules.SystemState;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides what a piece of hawkBit work would do to the systems its targets belong to. Pure: given the work and the
 * systems as the last sync found them, no database, no hawkBit, no clock.
 * <p>
 * A member moves when the work targets it and it does not run the work's set already. A system with rules is broken
 * by the work when what it would then run breaks a rule that what it runs now keeps (judged by the same evaluator as
 * the census and the manifests, {@link io.qawk.orchestrator.rules.CompatibilityRules#firstBreach}); a system of a type
 * without rules is left mixed when the work moves some of its members and not the others.
 */
final class ThreatJudge {

    private ThreatJudge() {
    }

    /**
     * The threat of {@code work} to the given systems (those holding one of its targets), or empty when it moves no
     * member of any; its systems by name (then type id), whatever order they were found in (a set of targets).
     */
    static Optional<Threat> judge(PendingWork work, Collection<SystemNow> systems) {
        List<Threat.AtSystem> at = new ArrayList<>();
        for (SystemNow s : systems) {
            atSystem(work, s).ifPresent(at::add);
        }
        at.sort(Comparator.comparing(Threat.AtSystem::system).thenComparingLong(Threat.AtSystem::systemTypeId));
        return at.isEmpty() ? Optional.empty() : Optional.of(new Threat(work, at));
    }

    static Optional<Threat.AtSystem> atSystem(PendingWork work, SystemNow s) {
        List<String> moved = new ArrayList<>();
        List<String> staying = new ArrayList<>();
        SystemState before = SystemState.empty();
        SystemState after = SystemState.empty();
        Map<String, Set<String>> wouldRun = new LinkedHashMap<>();
        for (SystemNow.Member m : s.members()) {
            boolean moves = work.targets().contains(m.device()) && !work.set().equals(m.set());
            String then = moves ? work.set() : m.set();
            (moves ? moved : staying).add(m.device());
            before = before.with(m.component(), m.device(), m.set());
            after = after.with(m.component(), m.device(), then);
            wouldRun.computeIfAbsent(m.component(), k -> new TreeSet<>()).add(then == null ? "none" : then);
        }
        if (moved.isEmpty()) {
            return Optional.empty();
        }
        Threat.Breaks breaks = null;
        if (!s.rules().isEmpty()) {
            Optional<Breach> now = s.rules().firstBreach(before);
            Optional<Breach> then = s.rules().firstBreach(after);
            if (then.isPresent() && (now.isEmpty() || now.get().rule() != then.get().rule())) {
                breaks = new Threat.Breaks(then.get().rule(), then.get().words());
            }
        } else if (!staying.isEmpty()) {
            breaks = new Threat.Breaks(null, "mixed: " + s.system() + " would run " + work.set() + " on "
                    + list(moved) + " while " + list(staying) + " stay" + (staying.size() == 1 ? "s" : "")
                    + " where " + (staying.size() == 1 ? "it is" : "they are"));
        }
        Map<String, List<String>> run = new LinkedHashMap<>();
        wouldRun.forEach((k, v) -> run.put(k, List.copyOf(v)));
        return Optional.of(new Threat.AtSystem(s.systemTypeId(), s.systemType(), s.system(), s.guard(), moved, run,
                breaks));
    }

    private static String list(List<String> devices) {
        List<String> shown = new ArrayList<>(new LinkedHashSet<>(devices));
        if (shown.size() > 5) {
            int more = shown.size() - 4;
            shown = new ArrayList<>(shown.subList(0, 4));
            shown.add(more + " more");
        }
        if (shown.size() == 1) {
            return shown.get(0);
        }
        return String.join(", ", shown.subList(0, shown.size() - 1)) + " and " + shown.get(shown.size() - 1);
    }
}
