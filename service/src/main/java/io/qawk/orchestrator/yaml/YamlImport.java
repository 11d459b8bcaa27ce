package io.qawk.orchestrator.yaml;

import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRequest;
import io.qawk.orchestrator.manifest.ManifestService;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.systemtype.SystemTypeRequest;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Imports and exports topologies and manifests as Mender YAML. An import of a name that exists updates it, through
 * the same services (and so the same rules and guards) as the JSON API; an import that would change nothing writes
 * nothing. Errors of the services are reported with the YAML paths of the document.
 */
@ApplicationScoped
public class YamlImport {

    @Inject
    SystemTypeService systemTypes;

    @Inject
    ManifestService manifests;

    @Inject
    HawkbitGateway hawkbit;

    @Transactional
    public ImportResult importTopology(byte[] body) {
        YamlDocument doc = YamlParsing.parse(body);
        TopologyYaml.Parsed parsed = TopologyYaml.read(doc);
        UnaryOperator<String> paths = field -> TopologyYaml.yamlPath(field, parsed.yamlIndex());
        try {
            Optional<SystemType> existing = SystemType.findByName(parsed.request().name());
            if (existing.isEmpty()) {
                SystemType created = systemTypes.create(parsed.request());
                return new ImportResult(ImportResult.CREATED, created.id, created.name, parsed.ignored());
            }
            SystemType type = existing.get();
            SystemTypeRequest request = TopologyYaml.keeping(parsed, SystemTypeRequest.of(type));
            if (TopologyYaml.sameAs(type, request)) {
                return new ImportResult(ImportResult.UNCHANGED, type.id, type.name, parsed.ignored());
            }
            systemTypes.replace(type.id, request);
            return new ImportResult(ImportResult.UPDATED, type.id, type.name, parsed.ignored());
        } catch (InvalidRequestException e) {
            throw inYamlTerms(e, paths, doc);
        }
    }

    @Transactional
    public ImportResult importManifest(byte[] body) {
        YamlDocument doc = YamlParsing.parse(body);
        ManifestYaml.Parsed parsed = ManifestYaml.read(doc);
        FieldErrors errors = new FieldErrors();
        Optional<SystemType> type = SystemType.findByName(parsed.systemType());
        if (type.isEmpty()) {
            String at = "system_types_compatible[0]";
            errors.add(at, "system type '" + parsed.systemType() + "' does not exist; import its topology first "
                    + "(POST /qawk/v1/systemtypes/import)" + doc.at(at));
        }
        Map<Long, String> labels = new HashMap<>();
        List<ManifestRequest.ComponentRequest> components = new ArrayList<>();
        // no update_strategy anywhere on a type with rules: the rules imply the orders; otherwise order 1, as always
        boolean derive = type.isPresent() && !type.get().rules.isEmpty()
                && parsed.components().stream().allMatch(c -> c.order() == null);
        for (ManifestYaml.Component c : parsed.components()) {
            String at = c.path() + ".artifact_name";
            Optional<DistributionSetRef> set = hawkbit.resolveArtifactName(c.artifactName());
            if (set.isEmpty()) {
                boolean named = c.artifactName().indexOf(':') > 0 && !c.artifactName().endsWith(":");
                errors.add(at, (named ? "hawkBit has no distribution set '" + c.artifactName() + "'"
                        : "hawkBit has no distribution set named '" + c.artifactName() + "' (in any version)")
                        + doc.at(at));
                continue;
            }
            labels.put(set.get().id(), set.get().label());
            Integer order = c.order() != null || derive ? c.order() : Integer.valueOf(ManifestYaml.MIN_ORDER);
            components.add(new ManifestRequest.ComponentRequest(c.componentType(), set.get().id(), order, c.verify()));
        }
        errors.throwIfAny();
        ManifestRequest request = manifests.withOrders(new ManifestRequest(parsed.name(), type.get().id, components));
        UnaryOperator<String> paths = field -> ManifestYaml.yamlPath(field, parsed.components());
        try {
            Optional<Manifest> existing = manifests.findByName(parsed.name());
            if (existing.isEmpty()) {
                Manifest created = manifests.create(request);
                return new ImportResult(ImportResult.CREATED, created.id, created.name, parsed.ignored());
            }
            Manifest m = existing.get();
            if (ManifestService.sameAs(m, request, labels)) {
                return new ImportResult(ImportResult.UNCHANGED, m.id, m.name, parsed.ignored());
            }
            manifests.replace(m.id, request);
            return new ImportResult(ImportResult.UPDATED, m.id, m.name, parsed.ignored());
        } catch (InvalidRequestException e) {
            throw inYamlTerms(e, paths, doc);
        }
    }

    public String exportTopology(long id) {
        return TopologyYaml.write(systemTypes.get(id));
    }

    public String exportManifest(long id) {
        Manifest m = manifests.get(id);
        return ManifestYaml.write(m, systemTypes.get(m.systemTypeId).name);
    }

    private static InvalidRequestException inYamlTerms(InvalidRequestException e, UnaryOperator<String> paths,
                                                       YamlDocument doc) {
        List<FieldError> errors = e.errors().stream().map(f -> {
            String path = f.field() == null ? "" : paths.apply(f.field());
            return new FieldError(path, f.message() + doc.at(path));
        }).toList();
        return new InvalidRequestException(errors);
    }
}
