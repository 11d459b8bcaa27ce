package io.qawk.orchestrator.rules;

import java.util.Map;

/**
 * One compatibility rule, read: when some device of every component in {@code when} runs a set of its pattern, every
 * device of every component in {@code then} runs a set of its pattern. {@code index} is its place in the type's list
 * ({@code rules[index]}); {@code why} is what operators read when it is broken. A component absent from a system
 * satisfies a {@code then} (it has no device to break it) and never triggers a {@code when}.
 */
public record Rule(int index, Map<String, SetPattern> when, Map<String, SetPattern> then, String why) {

    /** Where the rule stands in the type's list, as field paths name it. */
    public String path() {
        return "rules[" + index + "]";
    }
}
