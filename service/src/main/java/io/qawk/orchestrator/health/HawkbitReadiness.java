package io.qawk.orchestrator.health;

import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.inventory.SyncState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while hawkBit answers: without it nothing can be observed or assigned. Liveness does not depend on it. */
@Readiness
@ApplicationScoped
public class HawkbitReadiness implements HealthCheck {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    SyncState sync;

    @Override
    public HealthCheckResponse call() {
        boolean up = hawkbit.ping();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("hawkbit").status(up);
        SyncState.Snapshot s = sync.read();
        if (s.lastCompletedAt() != null) {
            b.withData("lastInventorySync", s.lastCompletedAt().toString());
        }
        if (s.lastError() != null) {
            b.withData("lastInventorySyncError", s.lastError());
        }
        return b.build();
    }
}
