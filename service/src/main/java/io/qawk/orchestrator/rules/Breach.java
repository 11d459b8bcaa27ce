package io.qawk.orchestrator.rules;

/**
 * A rule a state breaks, and the two devices that show it: one that runs a set the rule's {@code if} names
 * ({@code trigger}) and one of a {@code then} component that runs a set the rule does not allow with it
 * ({@code offender}; its set null when it runs nothing). {@code words} is what operators read:
 * {@code device-07-a runs app:2.0 with device-07-c on device2-fw:1.0 — app 2 speaks the v2 terminal protocol}.
 */
public record Breach(int rule, String why, Party trigger, Party offender, String needs) {

    /** A device (null in a census combination, which names components) of a component, and the set it runs. */
    public record Party(String component, String device, String set) {

        String who() {
            return device != null ? device : component;
        }

        String runs() {
            return set == null ? "nothing" : set;
        }
    }

    /** The sentence operators read. */
    public String words() {
        return trigger.who() + " runs " + trigger.runs() + " with " + offender.who() + " on " + offender.runs()
                + " (rules[" + rule + "] needs " + needs + ") — " + why;
    }
}
