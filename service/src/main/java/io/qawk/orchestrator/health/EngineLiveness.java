package io.qawk.orchestrator.health;

import io.qawk.orchestrator.deployment.RunRecords;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

import java.util.Optional;

/**
 * Alive while the deployment engine passes: down when its loop has ended or a pass has been under way for longer than
 * {@code qawk.engine.stuck-after}. Deployments then stand still while every API call still answers; a restart takes
 * them up where they stood (each pass reads what is stored), so the orchestrator restarting the service on this is
 * what an operator wants. hawkBit being away does not make it down: passes then end early, waiting.
 */
@Liveness
@ApplicationScoped
public class EngineLiveness implements HealthCheck {

    @Inject
    RunRecords engine;

    @Override
    public HealthCheckResponse call() {
        Optional<String> stuck = engine.engineStuck();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("deployment-engine").status(stuck.isEmpty());
        stuck.ifPresent(why -> b.withData("reason", why));
        engine.lastPassEndedAgo().ifPresent(ago -> b.withData("lastPassEndedSecondsAgo", ago.toSeconds()));
        return b.build();
    }
}
