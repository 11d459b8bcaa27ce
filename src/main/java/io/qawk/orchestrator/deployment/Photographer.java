package io.qawk.orchestrator.deployment;

import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.TargetNotFoundException;
import io.qawk.orchestrator.inventory.SystemsQuery;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestComponent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Takes a system's photograph before anything moves: its devices (from the inventory) that fill a component of the
 * manifest, each with the set hawkBit says it runs right now. That is what a rollback goes back to.
 */
@ApplicationScoped
public class Photographer {

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    SystemsQuery systems;

    /** The devices to store for the run, or empty when the run is no longer pending. */
    public Optional<List<RunDevice>> photograph(long runId) {
        record Context(SystemRun run, Manifest manifest) {
        }
        Context ctx = QuarkusTransaction.requiringNew().call(() -> {
            SystemRun run = SystemRun.findById(runId);
            if (run == null || run.state != RunState.PENDING) {
                return null;
            }
            SystemDeployment d = SystemDeployment.findById(run.deploymentId);
            Manifest m = Manifest.findById(d.manifestId);
            m.components.size();
            return new Context(run, m);
        });
        if (ctx == null) {
            return Optional.empty();
        }
        List<RunDevice> out = new ArrayList<>();
        for (SystemsQuery.SystemDevice dev : systems.devices(ctx.manifest().systemTypeId, ctx.run().system)) {
            Optional<ManifestComponent> component = ctx.manifest().component(dev.componentType());
            if (component.isEmpty()) {
                continue; // component types the manifest leaves out are not touched
            }
            Optional<DistributionSetRef> installed;
            try {
                installed = hawkbit.installedSet(dev.controllerId());
            } catch (TargetNotFoundException gone) {
                continue;
            }
            RunDevice d = new RunDevice();
            d.runId = runId;
            d.controllerId = dev.controllerId();
            d.componentType = dev.componentType();
            d.order = component.get().order;
            d.fromSetId = installed.map(DistributionSetRef::id).orElse(null);
            d.fromSet = installed.map(DistributionSetRef::label).orElse(null);
            d.toSetId = component.get().distributionSetId;
            d.toSet = component.get().distributionSet;
            d.state = DeviceState.WAITING;
            out.add(d);
        }
        return Optional.of(out);
    }
}
