package io.qawk.orchestrator.systemtype;

import java.util.Locale;
import java.util.Optional;

/**
 * What Qawk does about hawkBit work started outside it (a rollout, an auto-assignment, an assignment by hand) that would
 * move a member of a system of this type: {@code watch} lists it as a threat; {@code hold} also stops it, as far as
 * hawkBit lets a client, when it would break a rule or leave the system mixed.
 */
public enum GuardMode {
    WATCH, HOLD;

    /** The API's word: {@code watch} or {@code hold}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode for the API's word; empty for any other text. */
    public static Optional<GuardMode> parse(String word) {
        for (GuardMode m : values()) {
            if (m.word().equals(word)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
