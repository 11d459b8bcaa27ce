package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.observation.DeviceObserver;
import io.qawk.orchestrator.deployment.plan.Health;
import io.qawk.orchestrator.deployment.plan.PlanInput;
import io.qawk.orchestrator.deployment.plan.RunPlanner;
import io.qawk.orchestrator.deployment.store.DeploymentSnapshot;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.HawkbitException;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.qawk.orchestrator.observation.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The step "observe" of a pass: everything hawkBit is asked of one deployment, in one call, so that the steps after it
 * (plan, save) ask it nothing. Unconfirmed intents are recovered ({@link IntentRecoverer}), the devices in flight
 * observed, verifications and soaking systems' health asked ({@link DeviceVerifier}, {@link SystemHealth}), time
 * nobody could observe accounted for ({@link UnobservedTime}), and last the words the planner needs.
 */
@ApplicationScoped
public class PassObserver {

    private static final Logger LOG = Logger.getLogger(PassObserver.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    DeviceObserver devices;

    @Inject
    IntentRecoverer intents;

    @Inject
    DeviceVerifier verifier;

    @Inject
    SystemHealth health;

    @Inject
    UnobservedTime unobserved;

    @Inject
    Clock clock;

    @Inject
    EngineConfig config;

    /**
     * What the step "observe" gathered of a deployment, as of {@code at}, when its questions were sent (an answer that
     * comes late is as old as its question), with time nobody observed accounted for in {@code snapshot}: everything
     * the planner is to know of hawkBit ({@code observed}: the devices in flight, with those that left their system,
     * the sets of devices taken over, the verifications and what devices about to fail theirs report instead), the
     * health of soaking systems by run ({@code verdicts}); {@code refused}: devices whose verification query hawkBit
     * refused, with why; {@code waited}: how long the answers took; {@code reported}: for devices in flight that
     * finished, when hawkBit says they did (from the same bulk answers, where hawkBit named a time).
     */
    public record Observation(DeploymentSnapshot snapshot, Instant at, Duration waited, PlanInput.Observed observed,
                              Map<String, String> refused, Map<Long, Health> verdicts, Map<String, Instant> reported) {
    }

    /**
     * The step "observe": every question of the pass asked of hawkBit (recovering intents, the devices in flight,
     * verifications, soaking systems' health), time nobody observed accounted for, then the words the planner needs:
     * for devices taken over the set someone else gave them, for devices about to fail verification what they report
     * instead (hawkBit away here leaves a report out, or fails the pass for a set taken over). Planning asks nothing.
     */
    public Observation gather(DeploymentSnapshot loaded) {
        Instant askedAt = clock.instant();
        Heard heard = ask(loaded, askedAt);
        DeploymentSnapshot snap = unobserved.observed(heard.snapshot(), askedAt);
        Map<String, String> reports = new HashMap<>(reportsOfFailing(snap, heard.verified(), heard.refused().keySet()));
        reports.putAll(heard.refused());
        PlanInput.Observed observed = new PlanInput.Observed(heard.outcomes(), takenBy(heard.outcomes()),
                heard.verified(), reports, null);
        return new Observation(snap, askedAt, heard.waited(), observed, heard.refused(), heard.verdicts(),
                heard.reported());
    }

    /** hawkBit's answers to the pass's questions, before the words. */
    private record Heard(DeploymentSnapshot snapshot, Duration waited, Map<String, Outcome> outcomes,
                         Map<String, Boolean> verified, Map<String, String> refused, Map<Long, Health> verdicts,
                         Map<String, Instant> reported) {
    }

    /**
     * Recovering intents and asking for news: both ask hawkBit, and hawkBit away fails the pass as a whole (so no
     * device is judged on a missing answer), the deployment marked unobserved from its last observation.
     */
    private Heard ask(DeploymentSnapshot loaded, Instant askedAt) {
        try {
            DeploymentSnapshot snap = intents.recover(loaded);
            Map<String, Instant> reported = new ConcurrentHashMap<>();
            Map<String, Outcome> outcomes = new HashMap<>(devices.observe(snap.inFlight(), reported));
            Map<String, String> refused = new HashMap<>();
            Map<String, Boolean> verified = verifier.matches(DeviceVerifier.toVerify(snap, outcomes), refused);
            Map<Long, Health> verdicts = health.check(SystemHealth.soaking(snap), snap.metricGate());
            for (String left : snap.leftTheirSystem()) {
                outcomes.put(left, Outcome.LEFT);
            }
            return new Heard(snap, Duration.between(askedAt, clock.instant()), outcomes, verified, refused, verdicts,
                    Map.copyOf(reported));
        } catch (HawkbitException away) {
            unobserved.notObserved(loaded.deploymentId(),
                    away instanceof HawkbitUnavailableException ? "hawkBit unreachable" : "hawkBit refused Qawk's requests");
            throw away;
        }
    }

    /**
     * For devices about to fail verification (not matching, their verify timeout run out by the time this pass plans),
     * what they report instead: words only, so hawkBit away here leaves them out rather than holding the pass.
     */
    private Map<String, String> reportsOfFailing(DeploymentSnapshot snap, Map<String, Boolean> verified,
                                                 Set<String> refused) {
        List<DeviceVerifier.Ask> failing = DeviceVerifier.failing(snap, verified, clock.instant().plus(config.interval()))
                .stream().filter(a -> !refused.contains(a.controllerId())).toList();
        if (failing.isEmpty()) {
            return Map.of();
        }
        try {
            return verifier.reports(failing);
        } catch (HawkbitException away) {
            LOG.warnf("What %d device(s) report instead of their verification query could not be read: %s",
                    failing.size(), away.getMessage());
            return Map.of();
        }
    }

    /** For devices someone else gave another set while ours was open: that set's name, as hawkBit says it. */
    private Map<String, String> takenBy(Map<String, Outcome> outcomes) {
        Map<String, String> out = new LinkedHashMap<>();
        outcomes.forEach((id, o) -> {
            if (o == Outcome.TAKEN_OVER) {
                try {
                    hawkbit.assignedSet(id).ifPresent(set -> out.put(id, set.label()));
                } catch (TargetNotFoundException gone) {
                    // named as "another set"
                }
            }
        });
        return out;
    }

}
