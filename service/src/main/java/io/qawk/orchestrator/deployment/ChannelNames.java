package io.qawk.orchestrator.deployment;

import java.util.Optional;

/**
 * What deployments ask of channels, which they may not use directly (channels use deployments): a channel's name, or
 * empty when there is no such channel. Implemented by the {@code channel} package.
 */
public interface ChannelNames {

    Optional<String> name(long channelId);

    /** Whether the channel's deployments need four eyes (issue 42); false when there is no such channel. */
    boolean approvalRequired(long channelId);
}
