package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.store.SystemRunWriter;
import io.qawk.orchestrator.deployment.store.TimelineWriter;
import io.qawk.orchestrator.manifest.Manifest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A channel's deployment follows the channel: on every pass it asks again which systems are in scope. Systems that
 * arrived (a centre moved in, a mixed system whose devices are now all in) get a pending run, and a finished
 * deployment reopens; a pending system whose devices left the channel before it was reached is given up. A
 * deployment stopped on purpose (paused, aborted) or by its own failures is left as it is.
 */
@ApplicationScoped
public class DeploymentFollower {

    @Inject
    SystemRunWriter runWriter;

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
        Map<String, SystemRun> runs = SystemRun.ofDeployment(d.id).stream()
                .collect(Collectors.toMap(r -> r.system, Function.identity()));
        Set<String> wanted = new HashSet<>();
        int seq = runs.values().stream().mapToInt(r -> r.seq).max().orElse(-1) + 1;
        int added = 0;
        List<SystemRunWriter.Pending> joining = new ArrayList<>();
        Instant now = clock.instant();
        List<Long> back = new ArrayList<>();
        for (DeploymentScope.InScope s : inScope) {
            wanted.add(s.system());
            SystemRun known = runs.get(s.system());
            if (known != null && known.state == RunState.GIVEN_UP) {
                back.add(known.id);
                added++;
            } else if (known == null) {
                joining.add(new SystemRunWriter.Pending(s.system(), s.group(), seq++));
                added++;
            }
        }
        runWriter.insertPending(d.id, m.systemTypeId, joining, now,
                new TimelineEvent.Created("joined the channel's scope after the release started"), null);
        Set<String> moving = scope.outOfScope(d, m).stream().filter(DeploymentScope.OutOfScope::mixed)
                .map(DeploymentScope.OutOfScope::system).collect(Collectors.toSet());
        List<Long> left = runs.values().stream()
                .filter(r -> r.state == RunState.PENDING && !wanted.contains(r.system) && !moving.contains(r.system))
                .map(r -> r.id).toList();
        // the runs read above are only looked at; those that change are locked (in one id order) and changed here
        List<Long> changing = Stream.concat(back.stream(), left.stream()).sorted().toList();
        for (SystemRun run : runWriter.lock(changing)) {
            if (run.state == RunState.GIVEN_UP && back.contains(run.id)) {
                // given up because it left (its centre moved out, its devices vanished) and now back: take it again
                run.moveTo(RunState.PENDING);
                run.endedAt = null;
                run.reason = null;
                TimelineWriter.record(run.id, now, TimelineEvent.TakenAgain.cameBackIntoScope(), null);
            } else if (run.state == RunState.PENDING && left.contains(run.id)) {
                run.moveTo(RunState.GIVEN_UP);
                run.endedAt = now;
                run.reason = "given up: its devices left the channel (or its centres) before the orchestrator reached it";
                TimelineWriter.record(run.id, now, new TimelineEvent.GivenUp(run.reason), null);
            }
        }
        runWriter.writeNow();
        d.refreshPhase(SystemRun.summaries(d.id), clock.instant());
        return added;
    }
}
