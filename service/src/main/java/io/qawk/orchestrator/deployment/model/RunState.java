package io.qawk.orchestrator.deployment.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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

    /**
     * This run drives its system (no other deployment may start it): under way, or succeeded and about to go back by
     * hand. The one definition: the engine, the start gate and the unique index {@code system_run_one_driver} say the
     * same ({@link #drivesSql}; a test holds the index to it).
     */
    public boolean drives(RollbackCause cause) {
        return underWay() || this == SUCCEEDED && cause == RollbackCause.MANUAL;
    }

    /**
     * {@link #drives} in SQL over a row's {@code state} and {@code rollback_cause} ({@code alias}: the table's alias,
     * empty for none), generated from it.
     */
    public static String drivesSql(String alias) {
        String state = alias.isEmpty() ? "state" : alias + ".state";
        String cause = alias.isEmpty() ? "rollback_cause" : alias + ".rollback_cause";
        List<String> always = new ArrayList<>();
        List<String> when = new ArrayList<>();
        for (RunState s : values()) {
            List<RollbackCause> causes = new ArrayList<>();
            for (RollbackCause c : RollbackCause.values()) {
                if (s.drives(c)) {
                    causes.add(c);
                }
            }
            if (s.drives(null) && causes.size() == RollbackCause.values().length) {
                always.add("'" + s.name() + "'");
            } else {
                for (RollbackCause c : causes) {
                    when.add("(" + state + " = '" + s.name() + "' and " + cause + " = '" + c.name() + "')");
                }
            }
        }
        List<String> terms = new ArrayList<>();
        if (!always.isEmpty()) {
            terms.add(state + " in (" + String.join(", ", always) + ")");
        }
        terms.addAll(when);
        return terms.isEmpty() ? "false" : "(" + String.join(" or ", terms) + ")";
    }

    /**
     * The state a reader is told (the API, the screen, the counts): a run whose rollback is asked for by hand or decided
     * after a failure ({@code cause} set) reads ROLLING_BACK from the command on, while it is still stored RUNNING,
     * VERIFYING or SUCCEEDED until the engine's next pass (devices in flight finish first); any other, as stored.
     */
    public RunState seen(RollbackCause cause) {
        return cause != null && (this == RUNNING || this == VERIFYING || this == SUCCEEDED) ? ROLLING_BACK : this;
    }

    /** Reads ROLLING_BACK ({@link #seen}): going back, stored so or asked to (a {@code cause} set). */
    public boolean goingBack(RollbackCause cause) {
        return seen(cause) == ROLLING_BACK;
    }

    public boolean terminal() {
        return TERMINAL.contains(this);
    }

    /** Rolled back (or tried to): the states a system can be taken again from. */
    public boolean wentBack() {
        return this == ROLLED_BACK || this == ROLLBACK_FAILED;
    }

    /**
     * Whether a run in this state, with its rollback {@code cause} (null: none asked nor decided), may be asked
     * {@code command}: the state it reads ({@link #seen}) answers. Start and abort are the deployment's commands as
     * they reach one run: the engine starts a PENDING run, an abort skips a PENDING run. Roll back by hand: RUNNING,
     * VERIFYING, SUCCEEDED not going back already; take again: ROLLED_BACK, ROLLBACK_FAILED; adopt: under way (and
     * only when its records are behind: {@code SystemRun#allows}). Pause, resume, approve, reject and edit are asked of
     * a whole deployment, never of one run.
     */
    public boolean allows(Command command, RollbackCause cause) {
        RunState seen = seen(cause);
        return switch (command) {
            case START, ABORT -> seen == PENDING;
            case ROLL_BACK -> seen == RUNNING || seen == VERIFYING || seen == SUCCEEDED;
            case TAKE_AGAIN -> seen.wentBack();
            case ADOPT -> seen.underWay();
            case PAUSE, RESUME, APPROVE, REJECT, EDIT -> false;
        };
    }

    /**
     * The words of the refusal (a 409's detail) when the run of {@code system} in this state, with its rollback
     * {@code cause}, is asked {@code command} it does not allow. Take again of a run still going back has words that
     * count its devices: {@link #stillRollingBack}.
     */
    public String refusal(Command command, String system, RollbackCause cause) {
        String is = "system '" + system + "' is " + this;
        return switch (command) {
            case START -> is + "; only a PENDING system can be started";
            case ABORT -> is + "; only a PENDING system is skipped by an abort";
            case ROLL_BACK -> cause != null && seen(cause) != this
                    ? "system '" + system + "' is already going back (" + cause.name().toLowerCase() + ")"
                    : is + "; only a RUNNING, VERIFYING or SUCCEEDED system can be rolled back by hand";
            case TAKE_AGAIN -> is + "; only a ROLLED_BACK or ROLLBACK_FAILED system can be taken again";
            case ADOPT -> is + "; only a system under way (RUNNING, VERIFYING or ROLLING_BACK) can have records behind"
                    + " hawkBit";
            case PAUSE, RESUME, APPROVE, REJECT, EDIT -> command.verb() + " is asked of a whole deployment, not of"
                    + " system '" + system + "'";
        };
    }

    /**
     * Take again asked of a system still going back ({@code back} of {@code back + going} devices on their previous
     * set): how far it is, and what to wait for.
     */
    public static String stillRollingBack(String system, long back, long going) {
        return system + " is still rolling back (" + back + " of " + (back + going)
                + " devices back): take it again once it reads ROLLED_BACK (or ROLLBACK_FAILED)";
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
