package io.qawk.orchestrator.health;

import io.qawk.orchestrator.guard.GuardPass;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.inventory.SyncState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import java.util.Optional;

/**
 * Ready only while hawkBit answers: without it nothing can be observed or assigned. Down also while its calls hang
 * unanswered ({@code qawk.hawkbit.hang-after}), not only once they fail, with the reason in {@code hawkbit}'s data.
 * Liveness does not depend on it.
 */
@Readiness
@ApplicationScoped
public class HawkbitReadiness implements HealthCheck {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    SyncState sync;

    @Inject
    GuardPass guard;

    @Override
    public HealthCheckResponse call() {
        Optional<String> unreachable = hawkbit.unreachable();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("hawkbit").status(unreachable.isEmpty());
        unreachable.ifPresent(why -> b.withData("reason", why));
        SyncState.Snapshot s = sync.read();
        if (s.lastCompletedAt() != null) {
            b.withData("lastInventorySync", s.lastCompletedAt().toString());
        }
        if (s.lastError() != null) {
            b.withData("lastInventorySyncError", s.lastError());
        }
        GuardPass.Report g = guard.last();
        if (g.at() != null) {
            b.withData("guard", g.error() != null ? "last pass " + g.at() + " failed: " + g.error()
                    : "last pass " + g.at() + ": " + g.threats() + " threat(s), " + g.holds() + " hold(s), "
                    + g.requests() + " hawkBit request(s)");
            if (!g.blindTo().isEmpty()) {
                b.withData("guardCannotSee", String.join("; ", g.blindTo()));
            }
            GuardPass.Sight seen = guard.sight();
            if (seen.probedAt() != null) {
                b.withData("guardAutoAssignments", seen.autoAssignmentsInWords());
                b.withData("guardRolloutApproval", seen.rolloutApprovalInWords());
            }
        }
        return b.build();
    }
}
