package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.inventory.Census;
import io.qawk.orchestrator.systemtype.SystemType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Saves what a group of systems runs as a manifest (a baseline): the first step of a team adopting Qawk on a running
 * fleet, whose systems run mixes no manifest names yet. The mix must be one the census lists now, and name one set per
 * component; a component whose devices run nothing is left out. The manifest is then created as any other is.
 */
@ApplicationScoped
public class CensusManifests {

    @Inject
    Census census;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    ManifestService manifests;

    public Manifest create(CensusManifestRequest r) {
        FieldErrors errors = new FieldErrors();
        if (r == null) {
            errors.add("", "a JSON body with name, systemTypeId and versions is required").throwIfAny();
            return null;
        }
        errors.name(r.name(), "name");
        SystemType type = null;
        if (r.systemTypeId() == null) {
            errors.add("systemTypeId", "is required");
        } else {
            type = SystemType.<SystemType>findByIdOptional(r.systemTypeId()).orElse(null);
            errors.check(type != null, "systemTypeId", "system type " + r.systemTypeId() + " does not exist");
        }
        errors.check(r.versions() != null && !r.versions().isEmpty(), "versions",
                "is required: the mix as GET /qawk/v1/systemtypes/{id}/versions lists it (component → its sets)");
        errors.throwIfAny();
        if (census.versions(type).content().stream().noneMatch(m -> m.versions().equals(r.versions()))) {
            throw new ConflictException("no system of " + type.name + " runs this mix now: save a mix the census"
                    + " (GET /qawk/v1/systemtypes/" + type.id + "/versions) lists");
        }
        List<ManifestRequest.ComponentRequest> components = new ArrayList<>();
        r.versions().forEach((component, sets) -> {
            String field = "versions." + component;
            List<String> named = sets.stream().filter(Objects::nonNull).toList();
            if (named.isEmpty()) {
                return; // its devices run nothing: the manifest leaves the component out
            }
            if (sets.size() > 1) {
                errors.add(field, "its devices run " + String.join(", ", sets.stream().map(s -> s == null ? "nothing" : s)
                        .toList()) + ": a manifest gives a component one set, so save a mix whose devices agree");
                return;
            }
            Optional<DistributionSetRef> set = hawkbit.resolveArtifactName(named.get(0));
            if (set.isEmpty()) {
                errors.add(field, "hawkBit no longer has the set " + named.get(0));
                return;
            }
            Integer order = r.orders() == null ? null : r.orders().get(component);
            components.add(new ManifestRequest.ComponentRequest(component, set.get().id(), order));
        });
        if (r.orders() != null) {
            r.orders().keySet().stream().filter(c -> !r.versions().containsKey(c))
                    .forEach(c -> errors.add("orders." + c, "names no component of the mix"));
        }
        errors.check(!components.isEmpty() || !errors.isEmpty(), "versions", "its devices run nothing: nothing to save");
        errors.throwIfAny();
        if (type.compatibility().isEmpty()) {
            components.replaceAll(c -> c.order() != null ? c
                    : new ManifestRequest.ComponentRequest(c.componentType(), c.distributionSetId(), 1));
        }
        return manifests.create(new ManifestRequest(r.name(), type.id, components));
    }
}
