package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.model.SystemDeployment;

import java.time.Duration;
import java.util.Map;

/**
 * What {@link RunPlanner} needs to verify a run in one pass: the deployment's verify timeout and soak, and this pass's
 * answers. {@code verified}: per device waiting to verify (or just finished), whether it matches its verification
 * query now (absent: not asked, which never fails it); {@code reports}: for a device about to fail verification, what
 * it reports instead ({@code reports 1.9}); {@code health}: for a soaking run, whether it is still healthy.
 */
public record Verification(Duration verifyTimeout, Duration soak, Map<String, Boolean> verified,
                           Map<String, String> reports, Health health) {

    /** No soak, nothing asked: what a run is planned with when nothing of this applies (and the behaviour before). */
    public static final Verification NONE = new Verification(
            Duration.ofSeconds(SystemDeployment.DEFAULT_VERIFY_TIMEOUT_SECONDS), Duration.ZERO, Map.of(), Map.of(),
            Health.unknown("not asked"));

    public Verification {
        verifyTimeout = verifyTimeout == null
                ? Duration.ofSeconds(SystemDeployment.DEFAULT_VERIFY_TIMEOUT_SECONDS) : verifyTimeout;
        soak = soak == null ? Duration.ZERO : soak;
        verified = verified == null ? Map.of() : verified;
        reports = reports == null ? Map.of() : reports;
        health = health == null ? Health.unknown("not asked") : health;
    }

    /** The same settings with a soaking run's verdict. */
    public Verification withHealth(Health h) {
        return new Verification(verifyTimeout, soak, verified, reports, h);
    }
}
