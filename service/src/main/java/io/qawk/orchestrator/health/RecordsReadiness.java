package io.qawk.orchestrator.health;

import io.qawk.orchestrator.deployment.RunRecords;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * Whether Qawk's records agree with hawkBit: always UP (a readiness DOWN would cut the service off, and with it the
 * commands a person needs to adopt what hawkBit shows), with the deployments that have runs whose records are behind
 * hawkBit in its data ({@code diverged}: {@code deployment 7: 3 run(s)}).
 */
@Readiness
@ApplicationScoped
public class RecordsReadiness implements HealthCheck {

    @Inject
    RunRecords store;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("records").up();
        try {
            Map<Long, Long> diverged = store.divergedByDeployment();
            if (!diverged.isEmpty()) {
                b.withData("diverged", diverged.entrySet().stream()
                        .map(e -> "deployment " + e.getKey() + ": " + e.getValue() + " run(s) behind hawkBit")
                        .collect(Collectors.joining("; ")));
            }
        } catch (RuntimeException e) {
            b.withData("diverged", "not read: " + e.getMessage());
        }
        return b.build();
    }
}
