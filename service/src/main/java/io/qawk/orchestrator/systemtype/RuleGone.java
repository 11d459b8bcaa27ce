package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.rules.RuleSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A compatibility rule an update takes away: removed (no rule of the new list is equal to it) or changed (a new rule
 * stands at its place now, which may be looser). A rule only moved to another place is not gone. Pure.
 */
record RuleGone(int index, RuleSpec rule, boolean changed) {

    /** The rules of {@code before} that {@code after} no longer has, in their order. */
    static List<RuleGone> between(List<RuleSpec> before, List<RuleSpec> after) {
        List<RuleSpec> now = after == null ? List.of() : after;
        List<RuleGone> gone = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            if (!now.contains(before.get(i))) {
                gone.add(new RuleGone(i, before.get(i), i < now.size() && !before.contains(now.get(i))));
            }
        }
        return gone;
    }

    /**
     * For the audit entry: {@code rules[1] removed ("app 2 speaks the v2 terminal protocol"): held device-03
     * (deployment 4); …}, or that it held and protected nothing.
     */
    String words(List<String> exposed) {
        String what = "rules[" + index + "] " + (changed ? "changed" : "removed")
                + (rule.why() == null || rule.why().isBlank() ? "" : " (\"" + rule.why() + "\")");
        return what + ": " + (exposed.isEmpty() ? "it held no system and protected none from a threat"
                : "exposed " + String.join("; ", exposed));
    }
}
