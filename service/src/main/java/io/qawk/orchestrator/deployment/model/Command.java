package io.qawk.orchestrator.deployment.model;

/**
 * What a person may ask of a deployment or of one of its systems. Which states allow which command is answered by
 * the states themselves ({@link DeploymentPhase#allows}, {@link RunState#allows}), and so are the words of a refusal.
 */
public enum Command {
    START("start", "started"),
    PAUSE("pause", "paused"),
    RESUME("resume", "resumed"),
    ABORT("abort", "aborted"),
    APPROVE("approve", "approved"),
    REJECT("reject", "rejected"),
    EDIT("edit", "edited"),
    TAKE_AGAIN("take again", "taken again"),
    ROLL_BACK("roll back", "rolled back by hand"),
    /** Take what hawkBit's actions prove for a system whose records are behind hawkBit (one run, or all of them). */
    ADOPT("adopt", "adopted");

    private final String verb;
    private final String done;

    Command(String verb, String done) {
        this.verb = verb;
        this.done = done;
    }

    /** The command in an operator's words: {@code take again}. */
    public String verb() {
        return verb;
    }

    /** What it does to what it is asked of, as words after "can be": {@code taken again}. */
    public String done() {
        return done;
    }

    /** Asked of one system's run ({@code take again}, {@code roll back}) rather than of a whole deployment. */
    public boolean ofOneSystem() {
        return this == TAKE_AGAIN || this == ROLL_BACK;
    }
}
