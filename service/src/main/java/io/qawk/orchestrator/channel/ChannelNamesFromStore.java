package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.ChannelNames;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/** Channels' names for deployments, which check the channel a request names (issue 36). */
@ApplicationScoped
class ChannelNamesFromStore implements ChannelNames {

    @Override
    public Optional<String> name(long channelId) {
        return Channel.<Channel>findByIdOptional(channelId).map(f -> f.name);
    }

    @Override
    public boolean approvalRequired(long channelId) {
        return Channel.<Channel>findByIdOptional(channelId).map(f -> f.approvalRequired).orElse(false);
    }
}
