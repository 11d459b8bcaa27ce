package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.systemtype.GuardMode;

import java.util.List;
import java.util.Map;

/**
 * hawkBit work outside Qawk and the systems it would move: for each, the members it would move, what the system would
 * then run and, when that breaks a rule the system keeps now (or, for a type without rules, moves only part of the
 * system), why.
 */
record Threat(PendingWork work, List<AtSystem> systems) {

    Threat {
        systems = List.copyOf(systems);
    }

    /** One system the work would move. */
    record AtSystem(long systemTypeId, String systemType, String system, GuardMode guard, List<String> members,
            Map<String, List<String>> wouldRun, Breaks breaks) {

        AtSystem {
            members = List.copyOf(members);
        }
    }

    /** Why the state after the work is not allowed: the rule broken (null when the system is only left mixed). */
    record Breaks(Integer rule, String reason) {
    }

    /** Whether a system of a type with {@code guard: hold} would break a rule or be left mixed. */
    boolean holdable() {
        return systems.stream().anyMatch(s -> s.guard() == GuardMode.HOLD && s.breaks() != null);
    }

    /** The systems of a type with {@code guard: hold} that it would break. */
    List<AtSystem> heldSystems() {
        return systems.stream().filter(s -> s.guard() == GuardMode.HOLD && s.breaks() != null).toList();
    }
}
