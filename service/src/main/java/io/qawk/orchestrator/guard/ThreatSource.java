package io.qawk.orchestrator.guard;

import java.util.Optional;

/** Where hawkBit work outside Qawk comes from. */
public enum ThreatSource {
    /** A rollout of hawkBit's that is not finished. */
    ROLLOUT("rollout"),
    /** A target filter with an auto-assigned set. */
    AUTO_ASSIGNMENT("autoAssignment"),
    /** An open action on a member that no Qawk run created (an assignment by hand, a script's). */
    ASSIGNMENT("assignment");

    private final String word;

    ThreatSource(String word) {
        this.word = word;
    }

    /** The API's word. */
    public String word() {
        return word;
    }

    public static Optional<ThreatSource> parse(String word) {
        for (ThreatSource s : values()) {
            if (s.word.equals(word)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
