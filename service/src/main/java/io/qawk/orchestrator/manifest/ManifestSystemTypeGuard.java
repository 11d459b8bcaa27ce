package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.systemtype.SystemTypeRequest;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps system types from being pulled out from under the manifests written for them: a type that manifests use
 * cannot be deleted, and cannot lose a component type that one of them names.
 */
@ApplicationScoped
public class ManifestSystemTypeGuard implements SystemTypeService.SystemTypeUsage {

    private static final int NAMES_SHOWN = 10;

    @Override
    public void checkDelete(SystemType type) {
        List<Manifest> using = Manifest.list("systemTypeId = ?1 order by name", type.id);
        if (!using.isEmpty()) {
            throw new ConflictException("system type '" + type.name + "' is used by " + using.size()
                    + " manifest(s): " + names(using.stream().map(m -> m.name).toList())
                    + "; delete or change them first");
        }
    }

    @Override
    public void checkReplace(SystemType type, SystemTypeRequest request) {
        Set<String> kept = new HashSet<>();
        if (request.components() != null) {
            request.components().stream().filter(Objects::nonNull).forEach(c -> kept.add(c.componentType()));
        }
        Set<String> problems = new TreeSet<>();
        List<Manifest> using = Manifest.list("systemTypeId = ?1 order by name", type.id);
        for (Manifest m : using) {
            for (ManifestComponent c : m.components) {
                if (!kept.contains(c.componentType)) {
                    problems.add("'" + c.componentType + "' (used by manifest '" + m.name + "')");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConflictException("system type '" + type.name + "' cannot lose component type(s) that manifests "
                    + "use: " + names(List.copyOf(problems)) + "; change those manifests first");
        }
    }

    private static String names(List<String> names) {
        if (names.size() <= NAMES_SHOWN) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMES_SHOWN)) + " … (" + names.size() + " in all)";
    }
}
