package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.deployment.store.StartReads;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.plan.MendChoice;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Optional;

/**
 * Mends a broken system (one that something moved anyway: a set assigned by hand, a rollout seen too late): a draft
 * deployment of that one system, with the manifest that brings it to the nearest mix its rules allow
 * ({@link MendChoice}: the manifest it last ran successfully when that mends it, else the one that mends it and changes
 * least). Created like any deployment ({@link DeploymentService#create}), so it is previewed with its plan and started
 * by the operator; nothing moves before that.
 */
@ApplicationScoped
public class SystemMend {

    /** The longest deployment name ({@link DeploymentService#create}). */
    static final int NAME_MAX = 128;

    @Inject
    DeploymentService deployments;

    @Inject
    SystemsQuery systems;

    /**
     * The draft that mends {@code system}: 404 for an unknown type or system, 409 when it is not broken or no
     * manifest of its type mends it (naming the rule it breaks); nothing is stored then.
     */
    @Transactional
    public SystemDeployment mend(long systemTypeId, String system, String actor) {
        SystemType type = SystemType.findById(systemTypeId);
        if (type == null) {
            throw new NotFoundException("system type", systemTypeId);
        }
        // a system key is a value some device reports; one with a NUL no device can report (nor Postgres hold)
        List<SystemsQuery.SystemDevice> devices = system.indexOf('\0') >= 0 ? List.of()
                : systems.devices(systemTypeId, system);
        if (devices.isEmpty()) {
            throw new NotFoundException("system", "'" + system + "' of system type " + systemTypeId);
        }
        SystemsQuery.Broken broken = systems.summary(systemTypeId, system, List.of())
                .map(SystemsQuery.SystemSummary::broken).orElse(null);
        if (broken == null) {
            throw new ConflictException(system + " is not broken: nothing to mend");
        }
        CompatibilityRules rules = type.compatibility();
        List<Manifest> manifests = Manifest.list("systemTypeId = ?1 order by id", systemTypeId);
        List<MendChoice.Candidate> candidates = manifests.stream()
                .map(m -> new MendChoice.Candidate(m.id, m.name, StartReads.way(m, devices))).toList();
        MendChoice.Choice choice = MendChoice.choose(rules, lastRan(systemTypeId, system).orElse(null), candidates)
                .orElseThrow(() -> new ConflictException("no manifest of " + type.name + " mends " + system
                        + ": it breaks rules[" + broken.rule() + "]: " + broken.reason() + "; none of its "
                        + manifests.size() + " manifest(s) gets it onto a mix that keeps the rules, the fix first"));
        return deployments.create(new DeploymentRequest(name(system), choice.manifest().manifestId(), null, null,
                List.of(system), null, null, null, null, null, null, null, null), actor);
    }

    /** {@code mend <system>}, cut to the longest name a deployment may have. */
    static String name(String system) {
        String name = "mend " + system;
        return name.length() <= NAME_MAX ? name : name.substring(0, NAME_MAX - 1) + "…";
    }

    /** The manifest of the system's newest run that succeeded (read, never written: runs have their writers). */
    private static Optional<Long> lastRan(long systemTypeId, String system) {
        return SystemRun.getEntityManager().createQuery("select d.manifestId from SystemRun r, SystemDeployment d"
                        + " where d.id = r.deploymentId and r.systemTypeId = :type and r.system = :system"
                        + " and r.state = :succeeded order by r.endedAt desc nulls last, r.id desc", Long.class)
                .setParameter("type", systemTypeId).setParameter("system", system)
                .setParameter("succeeded", RunState.SUCCEEDED).setMaxResults(1)
                .getResultStream().findFirst();
    }
}
