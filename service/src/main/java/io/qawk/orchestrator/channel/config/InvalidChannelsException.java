package io.qawk.orchestrator.channel.config;

import java.util.List;

/** The channel configuration cannot be applied; every problem found is listed, each naming the value. */
public class InvalidChannelsException extends RuntimeException {

    private final List<String> problems;

    public InvalidChannelsException(String source, List<String> problems) {
        super("Invalid channel configuration" + (source == null ? "" : " in " + source) + " (" + problems.size()
                + " problem(s)); nothing was applied:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, e.g. {@code qawk fleets: channels[1].orchestrator.maxParallel must be ≥ 1 (got 0)}. */
    public List<String> problems() {
        return problems;
    }
}
