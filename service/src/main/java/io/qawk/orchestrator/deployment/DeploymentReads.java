package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.model.DeploymentEvent;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.store.RunRepository;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Map;

/**
 * What the API reads of deployments and their runs, each answer in one transaction: the resource maps these to its
 * views and queries nothing itself.
 */
@ApplicationScoped
public class DeploymentReads {

    @Inject
    DeploymentService service;

    @Inject
    DeploymentOverlaps overlaps;

    @Inject
    RunRepository repository;

    /**
     * A deployment with what its view shows: its manifest's name (null when gone), the revision it is pinned to (null:
     * none), its runs counted by state and
     * group, and, asked for one deployment only, the systems it shares with others ({@code overlaps}; else null).
     */
    public record Deployment(SystemDeployment deployment, String manifestName, ManifestRevision.Pinned pinned,
                             List<SystemRun.Tally> tally, List<ChannelDeployments.Overlap> overlaps) {
    }

    /** A run with its devices, each in order then controller id. */
    public record Run(SystemRun run, List<RunDevice> devices) {
    }

    /** A deployment's runs in sequence, each with its devices. */
    public record Runs(SystemDeployment deployment, List<Run> runs) {
    }

    /** Every deployment, newest first, without overlaps (the listing would ask them of every one). */
    @Transactional
    public List<Deployment> list() {
        return service.list().stream().map(d -> deployment(d, false)).toList();
    }

    /** One deployment, with the systems it shares with others. */
    @Transactional
    public Deployment get(long id) {
        return deployment(service.get(id), true);
    }

    /** One deployment, without overlaps (what a command answers with). */
    @Transactional
    public Deployment brief(long id) {
        return deployment(service.get(id), false);
    }

    @Transactional
    public Runs runs(long id) {
        SystemDeployment d = service.get(id);
        // two queries, not one per run: the screen polls this while tens of thousands of systems go through
        Map<Long, List<RunDevice>> devices = repository.devicesOfDeployment(id);
        return new Runs(d, repository.ofDeployment(id).stream()
                .map(r -> new Run(r, devices.getOrDefault(r.id, List.of()))).toList());
    }

    /** A run of a deployment, with the deployment; not found unless the run is the deployment's. */
    @Transactional
    public Runs run(long id, long runId) {
        SystemDeployment d = service.get(id);
        SystemRun r = runOf(id, runId);
        return new Runs(d, List.of(new Run(r, repository.devices(r.id))));
    }

    /** A run's timeline, oldest first. */
    @Transactional
    public List<RunEvent> events(long id, long runId) {
        service.get(id);
        runOf(id, runId);
        return repository.events(runId);
    }

    /** The deployment's own timeline (approvals, rejections, approvals taken back), oldest first. */
    @Transactional
    public List<DeploymentEvent> deploymentEvents(long id) {
        service.get(id);
        return DeploymentEvent.of(id);
    }

    private SystemRun runOf(long id, long runId) {
        SystemRun r = repository.find(runId);
        if (r == null || r.deploymentId != id) {
            throw new NotFoundException("run", runId + " of system deployment " + id);
        }
        return r;
    }

    private Deployment deployment(SystemDeployment d, boolean withOverlaps) {
        Manifest m = Manifest.findById(d.manifestId);
        return new Deployment(d, m == null ? null : m.name, ManifestRevision.pinned(d.manifestRevisionId),
                repository.tally(d.id), withOverlaps ? overlaps.of(d) : null);
    }
}
