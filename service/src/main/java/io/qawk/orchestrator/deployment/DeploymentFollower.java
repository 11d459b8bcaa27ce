package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.plan.RunScheduler;
import io.qawk.orchestrator.deployment.store.PhaseRefresh;
import io.qawk.orchestrator.deployment.store.RunStore;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.manifest.Manifest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A channel's deployment follows the channel: on every pass it asks again which systems are in scope. Systems that
 * arrived (a centre moved in, a mixed system whose devices are now all in) get a pending run, and a finished
 * deployment reopens; a pending system whose devices left the channel before it was reached is given up. A
 * deployment stopped on purpose (paused, aborted) or by its own failures is left as it is.
 */
@ApplicationScoped
public class DeploymentFollower {

    @Inject
    PhaseRefresh phases;

    @Inject
    RunRepository repository;

    @Inject
    RunStore store;

    @Inject
    DeploymentScope scope;

    @Inject
    Clock clock;

    /** Re-scopes a channel deployment; returns how many systems were added. */
    @Transactional
    public int follow(long deploymentId) {
        SystemDeployment d = SystemDeployment.lock(deploymentId);
        if (d.channelId == null || d.paused || d.aborted
                || !(d.phase == DeploymentPhase.RUNNING || d.phase == DeploymentPhase.FINISHED)) {
            return 0;
        }
        Manifest m = d.manifest(); // the revision it started with: joining systems get what the others got
        List<DeploymentScope.InScope> inScope = scope.inScope(d, m);
        Map<String, SystemRun> runs = repository.ofDeployment(d.id).stream()
                .collect(Collectors.toMap(r -> r.system, Function.identity()));
        Set<String> wanted = new HashSet<>();
        int seq = runs.values().stream().mapToInt(r -> r.seq).max().orElse(-1) + 1;
        int added = 0;
        List<RunRepository.Pending> joining = new ArrayList<>();
        for (DeploymentScope.InScope s : inScope) {
            wanted.add(s.system());
            SystemRun known = runs.get(s.system());
            if (known == null) {
                joining.add(new RunRepository.Pending(s.system(), s.group(), seq++));
                added++;
            } else if (RunScheduler.follow(known.state, true, false) == RunScheduler.Follow.TAKE_AGAIN) {
                added++;
            }
        }
        repository.createPending(d.id, m.systemTypeId, joining, clock.instant(),
                new TimelineEvent.Created("joined the channel's scope after the release started"), null);
        Set<String> moving = scope.outOfScope(d, m).stream().filter(DeploymentScope.OutOfScope::mixed)
                .map(DeploymentScope.OutOfScope::system).collect(Collectors.toSet());
        // the runs read above are only looked at; the store locks and changes those the scheduler moves
        Map<Long, RunScheduler.Follow> decided = new HashMap<>();
        runs.values().forEach(r -> decided.put(r.id, RunScheduler.follow(r.state, wanted.contains(r.system),
                moving.contains(r.system))));
        store.storeFollow(decided);
        phases.refresh(d, repository.summaries(d.id), clock.instant());
        return added;
    }
}
