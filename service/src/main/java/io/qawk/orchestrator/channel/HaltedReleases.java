package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.model.ReleaseHalts;
import jakarta.enterprise.context.ApplicationScoped;

/** A deployment of a halted channel release starts no new system (the standalone half sends no new batch either). */
@ApplicationScoped
public class HaltedReleases implements ReleaseHalts {

    @Override
    public boolean halted(long deploymentId) {
        return ChannelRelease.count("deploymentId = ?1 and halted = true", deploymentId) > 0;
    }
}
