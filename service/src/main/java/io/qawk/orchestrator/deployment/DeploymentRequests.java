package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.analysis.MetricGates;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.window.Windows;
import io.qawk.orchestrator.window.WindowsValidation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks of a {@link DeploymentRequest} (a create, or an edit before the start): every field wrong is named in one
 * 400, and nothing is set then; a request that passes sets the deployment's settings.
 */
@ApplicationScoped
public class DeploymentRequests {

    static final int MAX_LIST = 1000;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    @Inject
    MetricGates metricGates;

    @Inject
    ChannelNames channels;

    /** Checks the request and sets the deployment's settings from it (a create, or an edit before the start). */
    void apply(SystemDeployment d, DeploymentRequest r) {
        FieldErrors errors = new FieldErrors();
        if (r == null) {
            errors.add("", "a JSON body with name and manifestId is required").throwIfAny();
        }
        errors.text(r.name(), "name", 128);
        if (r.manifestId() == null) {
            errors.add("manifestId", "is required");
        } else if (Manifest.findById(r.manifestId()) == null) {
            errors.add("manifestId", "manifest " + r.manifestId() + " does not exist");
        }
        if (r.channelId() != null && channels.name(r.channelId()).isEmpty()) {
            errors.add("fleetId", "no channel " + r.channelId());
        }
        int maxParallel = r.maxParallel() == null ? 1 : r.maxParallel();
        int maxFailed = r.maxFailed() == null ? 0 : r.maxFailed();
        int timeout = r.orderTimeoutSeconds() == null ? (int) config.defaultOrderTimeout().toSeconds() : r.orderTimeoutSeconds();
        errors.check(maxParallel >= 1 && maxParallel <= 10_000, "maxParallel", "must be between 1 and 10000");
        errors.check(maxFailed >= 0 && maxFailed <= 1_000_000, "maxFailed", "must be 0 or more");
        errors.check(timeout >= 5 && timeout <= 7 * 24 * 3600, "orderTimeoutSeconds", "must be between 5 and 604800");
        int verifyTimeout = r.verifyTimeoutSeconds() == null ? SystemDeployment.DEFAULT_VERIFY_TIMEOUT_SECONDS
                : r.verifyTimeoutSeconds();
        int soak = r.soakSeconds() == null ? 0 : r.soakSeconds();
        errors.check(verifyTimeout >= 1 && verifyTimeout <= SystemDeployment.MAX_VERIFY_SECONDS, "verifyTimeoutSeconds",
                "must be between 1 and " + SystemDeployment.MAX_VERIFY_SECONDS + " (a day)");
        errors.check(soak >= 0 && soak <= SystemDeployment.MAX_VERIFY_SECONDS, "soakSeconds",
                "must be between 0 (no soak) and " + SystemDeployment.MAX_VERIFY_SECONDS + " (a day)");
        checkNames(r.groups(), "groups", errors);
        checkNames(r.systems(), "systems", errors);
        metricGates.check(r.metricGate(), "metricGate", errors);
        WindowsValidation.check(r.windows(), "windows", clock.instant(), errors);
        errors.throwIfAny();

        d.name = r.name();
        d.manifestId = r.manifestId();
        d.channelId = r.channelId();
        d.groups = r.groups() == null ? new ArrayList<>() : new ArrayList<>(r.groups());
        d.systems = r.systems() == null ? new ArrayList<>() : new ArrayList<>(r.systems());
        d.maxParallel = maxParallel;
        d.maxFailed = maxFailed;
        d.byCentre = Boolean.TRUE.equals(r.byCentre());
        d.orderTimeoutSeconds = timeout;
        d.metricGateQuery = null;
        d.metricGateCondition = null;
        if (r.metricGate() != null) {
            d.metricGateQuery = r.metricGate().query();
            d.metricGateCondition = r.metricGate().condition().strip();
        }
        d.windows = Windows.orNull(r.windows());
        d.verifyTimeoutSeconds = verifyTimeout;
        d.soakSeconds = soak;
    }

    private static void checkNames(List<String> names, String field, FieldErrors errors) {
        if (names == null) {
            return;
        }
        if (!errors.check(names.size() <= MAX_LIST, field, "at most " + MAX_LIST + " entries")) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (errors.text(n, field + "[" + i + "]", 256)) {
                errors.check(seen.add(n), field + "[" + i + "]", "'" + n + "' appears more than once");
            }
        }
    }
}
