package io.qawk.orchestrator.deployment;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where one system's run stands.
 *
 * <pre>
 * PENDING ──start──▶ RUNNING ──all orders done──▶ SUCCEEDED
 *    │                  │  device failed / rollback by hand
 *    │                  ▼
 *    │             ROLLING_BACK ──▶ ROLLED_BACK | ROLLBACK_FAILED ──take again──▶ PENDING
 *    ├──deployment aborted──▶ SKIPPED
 *    ├──left the channel before it was reached, or its devices vanished──▶ GIVEN_UP ──back in scope──▶ PENDING
 *    └──(waits, still PENDING, while another deployment drives it or it is not whole in the channel)
 * SUCCEEDED ──rollback by hand──▶ ROLLING_BACK
 * </pre>
 */
public enum RunState {
    PENDING, RUNNING, ROLLING_BACK, SUCCEEDED, ROLLED_BACK, ROLLBACK_FAILED, SKIPPED, GIVEN_UP;

    static final Set<RunState> UNDER_WAY = EnumSet.of(RUNNING, ROLLING_BACK);
    static final Set<RunState> TERMINAL = EnumSet.of(SUCCEEDED, ROLLED_BACK, ROLLBACK_FAILED, SKIPPED, GIVEN_UP);

    public boolean underWay() {
        return UNDER_WAY.contains(this);
    }

    public boolean terminal() {
        return TERMINAL.contains(this);
    }

    /** Rolled back (or tried to): the states a system can be taken again from. */
    public boolean wentBack() {
        return this == ROLLED_BACK || this == ROLLBACK_FAILED;
    }
}
