package io.qawk.orchestrator.channel.config;

import io.smallrye.config.ConfigMapping;

import java.util.Optional;

/** Channels as configuration ({@code qawk.fleets.*}). */
@ConfigMapping(prefix = "qawk.fleets")
public interface ChannelsConfig {

    /**
     * A YAML or JSON file of channels applied at start-up ({@code QAWK_FLEETS_FILE}; the Helm chart mounts its
     * {@code channels} values there). Unset: channels are managed through the API only.
     */
    Optional<String> file();
}
