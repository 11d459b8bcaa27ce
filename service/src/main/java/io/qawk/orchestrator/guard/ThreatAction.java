package io.qawk.orchestrator.guard;

import java.util.Locale;

/** What the guard did about a threat. */
public enum ThreatAction {
    /** Listed only: the type watches, or the threat breaks nothing, or a person released the hold. */
    WATCHED,
    /** Stopped: its rollout paused or denied, its auto-assignment switched off. */
    HELD,
    /** Its action cancelled (an assignment on a member). */
    CANCELLED;

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
