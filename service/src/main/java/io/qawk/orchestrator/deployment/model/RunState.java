package io.qawk.orchestrator.deployment.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where one system's run stands. It changes only through {@link #to}, the one guard; {@link #next()} lists the
 * states each one may go to:
 *
 * <pre>
 * PENDING ──start──▶ RUNNING ──all orders done──▶ SUCCEEDED
 *    │                  │ └──all orders done, with a soak──▶ VERIFYING ──soaked, healthy──▶ SUCCEEDED
 *    │                  │  device failed / by hand                 │ unhealthy / by hand
 *    │                  ▼                                          ▼
 *    │             ROLLING_BACK ◀──────────────────────────────────┘
 *    │                  └──▶ ROLLED_BACK | ROLLBACK_FAILED ──take again──▶ PENDING
 *    ├──deployment aborted──▶ SKIPPED
 *    ├──left the channel before it was reached, or its devices vanished──▶ GIVEN_UP ──back in scope──▶ PENDING
 *    └──(waits, still PENDING, while another deployment drives it or it is not whole in the channel)
 * SUCCEEDED ──rollback by hand──▶ ROLLING_BACK
 * </pre>
 *
 * A decision that sends nothing back (every device updated ran nothing before) passes through ROLLING_BACK to
 * ROLLED_BACK in one pass: two steps, each through the guard ({@link RunPlanner.Decision#steps()}).
 */
public enum RunState {
    PENDING, RUNNING, ROLLING_BACK, SUCCEEDED, ROLLED_BACK, ROLLBACK_FAILED, SKIPPED, GIVEN_UP,
    /** Every order done; the whole system soaks (must stay healthy for the deployment's soak) before it counts. */
    VERIFYING;

    /** Driving its system: a soaking run too, since it may still send every device back. */
    public static final Set<RunState> UNDER_WAY = EnumSet.of(RUNNING, VERIFYING, ROLLING_BACK);
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

    /** The states this one may go to (staying is not a move). */
    public Set<RunState> next() {
        return switch (this) {
            case PENDING -> EnumSet.of(RUNNING, SKIPPED, GIVEN_UP);
            case RUNNING -> EnumSet.of(SUCCEEDED, VERIFYING, ROLLING_BACK);
            case VERIFYING -> EnumSet.of(SUCCEEDED, ROLLING_BACK);
            case ROLLING_BACK -> EnumSet.of(ROLLED_BACK, ROLLBACK_FAILED);
            case SUCCEEDED -> EnumSet.of(ROLLING_BACK); // by hand
            case ROLLED_BACK, ROLLBACK_FAILED, GIVEN_UP -> EnumSet.of(PENDING); // taken again; back in scope
            case SKIPPED -> EnumSet.noneOf(RunState.class);
        };
    }

    public boolean canGo(RunState target) {
        return next().contains(target);
    }

    /** The guard: {@code target} when this state may go there, else an {@link IllegalStateException} naming both. */
    public RunState to(RunState target) {
        if (!canGo(target)) {
            throw new IllegalStateException("a run cannot go from " + this + " to " + target);
        }
        return target;
    }
}
