package io.qawk.orchestrator.systemtype;

import java.util.List;
import java.util.function.Supplier;

/**
 * Implemented by the domains that a type's rules hold or protect systems in (the census's broken systems, the
 * deployments' held runs, the guard's threats): what a rule going away exposes, for the audit entry of the update that
 * removes or changes it (issue 56).
 */
public interface RuleWitness {

    /**
     * Asked before the change is applied, about rule {@code index} of the type as stored; the answer is asked after the
     * change is applied (and the census judged again): the words of what the rule held or protected and no longer does,
     * one per finding, e.g. {@code held device-03 (deployment 4)}; empty when nothing.
     */
    Supplier<List<String>> exposedBy(SystemType type, int index);
}
