package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.model.Command;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestUsage;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Deployments as drafts: read, created and edited before their start. Its seams live beside it: the request's checks
 * ({@link DeploymentRequests}), four eyes ({@link DeploymentApprovals}) and what people decide once it exists
 * ({@link DeploymentCommands}); which phase allows which command is the phase's answer ({@link DeploymentPhase#allows}).
 */
@ApplicationScoped
public class DeploymentService implements ManifestUsage {

    @Inject
    Clock clock;

    @Inject
    DeploymentRequests requests;

    @Inject
    DeploymentApprovals approvals;

    public List<SystemDeployment> list() {
        return SystemDeployment.list("order by id desc");
    }

    public SystemDeployment get(long id) {
        SystemDeployment d = SystemDeployment.findById(id);
        if (d == null) {
            throw new NotFoundException("system deployment", id);
        }
        return d;
    }

    @Transactional
    public SystemDeployment create(DeploymentRequest r, String actor) {
        SystemDeployment d = new SystemDeployment();
        requests.apply(d, r);
        d.createdAt = clock.instant();
        d.createdBy = actor;
        d.approvalRule = approvals.rule(d);
        d.phase = DeploymentPhase.DRAFT;
        d.refreshPhase(List.of(), clock.instant());
        d.persist();
        approvals.created(d, actor);
        return d;
    }

    /**
     * Edits a deployment not yet started (a draft, or one awaiting approval): the request replaces its settings, as at
     * creation. Any change takes an approval back: what was approved is no longer what would run (issue 42).
     */
    @Transactional
    public SystemDeployment update(long id, DeploymentRequest r, String actor) {
        return update(id, stored -> r, actor);
    }

    /**
     * An edit ({@code PUT} or {@code PATCH}): {@code change} makes the whole request from what is stored (as a request,
     * {@link DeploymentRequest#of}), read under the deployment's lock; then validated and applied as above.
     */
    @Transactional
    public SystemDeployment update(long id, UnaryOperator<DeploymentRequest> change, String actor) {
        SystemDeployment d = SystemDeployment.lock(id);
        d.check(Command.EDIT);
        DeploymentRequest r = change.apply(DeploymentRequest.of(d));
        List<Object> before = DeploymentApprovals.settings(d);
        String ruleBefore = d.approvalRule;
        requests.apply(d, r);
        approvals.edited(d, before, ruleBefore, actor);
        // not started, so it has no runs
        d.refreshPhase(List.of(), clock.instant());
        return d;
    }

    @Override
    public void checkChange(Manifest m) {
        long open = SystemDeployment.count("manifestId = :m and phase not in :ended", Parameters.with("m", m.id)
                .and("ended", List.of(DeploymentPhase.FINISHED, DeploymentPhase.FAILED, DeploymentPhase.ABORTED,
                        DeploymentPhase.REJECTED)));
        if (open > 0) {
            throw new ConflictException("manifest '" + m.name + "' is used by " + open
                    + " deployment(s) that have not ended; abort or finish them first");
        }
    }
}
