package io.qawk.orchestrator.deployment.engine;

import io.qawk.orchestrator.deployment.plan.RunPlanner;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.hawkbit.AssignmentIncompleteException;
import io.qawk.orchestrator.hawkbit.AssignmentRefusedException;
import io.qawk.orchestrator.hawkbit.AssignmentResult;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitRequestException;
import io.qawk.orchestrator.hawkbit.HawkbitUnavailableException;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The pass's steps "send" and "record hawkBit's answers": the decided assignments, already stored as intents, go to
 * hawkBit one call per distribution set, and hawkBit's actions are recorded. A set hawkBit refuses is an observation
 * the planner turns into the failures of the devices it was for (their runs go back on the next pass); targets hawkBit
 * silently dropped are named; hawkBit away only delays (the intents stay, the next pass recovers them). None of these stops the other sets from being sent.
 */
@ApplicationScoped
public class AssignmentSender {

    private static final Logger LOG = Logger.getLogger(AssignmentSender.class);

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    RunStore store;

    @Inject
    EngineMetrics metrics;

    @Inject
    Clock clock;

    void send(Outbox outbox) {
        Map<String, Long> runOfDevice = outbox.runOfDevice();
        Map<Long, List<RunPlanner.Assign>> bySet = outbox.assignments().stream()
                .collect(Collectors.groupingBy(RunPlanner.Assign::setId, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<Long, List<RunPlanner.Assign>> e : bySet.entrySet()) {
            List<String> ids = e.getValue().stream().map(RunPlanner.Assign::controllerId).distinct().toList();
            List<RunPlanner.Assign> sent = e.getValue();
            AssignmentResult result;
            Set<String> dropped = new HashSet<>();
            try {
                result = hawkbit.assign(e.getKey(), ids);
            } catch (AssignmentRefusedException refused) {
                Set<String> refusedIds = new HashSet<>();
                for (AssignmentRefusedException.Refusal r : refused.refusals()) {
                    LOG.warnf("hawkBit refused set %d (%s) for %d device(s): %s", e.getKey(), refused.setLabel(),
                            r.controllerIds().size(), r.statusAndReason());
                    recordRefusal(refused.setLabel(), r, runOfDevice);
                    refusedIds.addAll(r.controllerIds());
                }
                sent = sent.stream().filter(a -> !refusedIds.contains(a.controllerId())).toList();
                if (sent.isEmpty()) {
                    continue;
                }
                result = refused.result();
            } catch (AssignmentIncompleteException incomplete) {
                result = incomplete.result();
                dropped.addAll(incomplete.unknownTargets());
            } catch (HawkbitUnavailableException down) {
                LOG.warnf("Assignment of set %d to %d device(s) waits for hawkBit: %s", e.getKey(), ids.size(),
                        down.getMessage());
                continue; // intents stay; the next pass recovers them
            } catch (HawkbitRequestException notAllowed) {
                // not a refusal of this set (see HawkbitAnswer): Qawk's own access to hawkBit. No device is concerned.
                LOG.errorf("Assignment of set %d to %d device(s) waits: %s", e.getKey(), ids.size(),
                        notAllowed.getMessage());
                continue;
            }
            RunStore.Assigned assigned = store.recordAssignment(e.getKey(), sent, result, dropped, runOfDevice,
                    clock.instant());
            metrics.devicesAssigned(false, assigned.forward());
            metrics.devicesAssigned(true, assigned.back());
            assigned.gaps().forEach(g -> metrics.orderGap(g.systemType(), g.gap()));
        }
    }

    /**
     * hawkBit refused a set for some devices: an observation like a device's report, which the planner turns into
     * their failures (forward or back) and the store saves, their runs locked in one transaction.
     */
    private void recordRefusal(String setLabel, AssignmentRefusedException.Refusal r, Map<String, Long> runOfDevice) {
        Set<String> refused = Set.copyOf(r.controllerIds());
        List<Long> runIds = r.controllerIds().stream().map(runOfDevice::get).filter(Objects::nonNull).distinct().sorted()
                .toList();
        Instant at = clock.instant();
        QuarkusTransaction.requiringNew().run(() -> {
            for (RunStore.ToPlan planned : store.lockToPlan(runIds)) {
                RunPlanner.Refusal refusal = planned.refusal(refused, runOfDevice, setLabel, r.statusAndReason());
                if (!refusal.sets().isEmpty()) {
                    store.save(planned, RunPlanner.refused(planned.planned(), refusal), at);
                }
            }
        });
    }
}
