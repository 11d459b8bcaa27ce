package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.query.TargetQuerySyntax;
import io.qawk.orchestrator.rules.CompatibilityRules;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/** Checks a system type request completely and reports every problem with its JSON path. */
final class SystemTypeValidator {

    static final int MAX_COMPONENTS = 100;
    private static final Pattern COMPONENT_TYPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.\\-]{0,127}");

    private SystemTypeValidator() {
    }

    static void validate(SystemTypeRequest r) {
        FieldErrors errors = new FieldErrors();
        if (r == null) {
            errors.add("", "a JSON body with name, systemKey and components is required").throwIfAny();
            return;
        }
        errors.name(r.name(), "name");
        if (r.systemKey() == null || r.systemKey().isBlank()) {
            errors.add("systemKey", "is required (e.g. attribute.device or metadata.lane)");
        } else {
            errors.check(DeviceKey.parse(r.systemKey()).isPresent(), "systemKey", DeviceKey.formHint());
        }
        if (r.groupKey() != null) {
            errors.check(DeviceKey.parse(r.groupKey()).isPresent(), "groupKey", DeviceKey.formHint());
        }
        if (r.guard() != null) {
            errors.check(GuardMode.parse(r.guard()).isPresent(), "guard",
                    "must be watch or hold (got \"" + (r.guard().length() > 40 ? r.guard().substring(0, 40) + "…"
                            : r.guard()) + "\")");
        }
        if (r.approval() != null) {
            errors.check(Approval.parse(r.approval()).isPresent(), "approval",
                    Approval.invalid(r.approval()));
        }
        validateComponents(r.components(), errors);
        if (r.rules() != null && !r.rules().isEmpty()) {
            List<String> components = r.components() == null ? List.of() : r.components().stream()
                    .filter(Objects::nonNull).map(SystemTypeRequest.ComponentRequest::componentType)
                    .filter(Objects::nonNull).toList();
            CompatibilityRules.parse(r.rules(), components, errors);
        }
        errors.throwIfAny();
    }

    private static void validateComponents(List<SystemTypeRequest.ComponentRequest> components, FieldErrors errors) {
        if (components == null || components.isEmpty()) {
            errors.add("components", "at least one component is required");
            return;
        }
        if (!errors.check(components.size() <= MAX_COMPONENTS, "components",
                "at most " + MAX_COMPONENTS + " components (got " + components.size() + ")")) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < components.size(); i++) {
            SystemTypeRequest.ComponentRequest c = components.get(i);
            String at = "components[" + i + "]";
            if (c == null) {
                errors.add(at, "must be an object with componentType and match");
                continue;
            }
            if (errors.text(c.componentType(), at + ".componentType", 128)
                    && errors.check(COMPONENT_TYPE.matcher(c.componentType()).matches(), at + ".componentType",
                    "must hold only letters, digits, '_', '-', '.' and start with a letter or digit")) {
                errors.check(seen.add(c.componentType()), at + ".componentType",
                        "'" + c.componentType() + "' appears more than once");
            }
            TargetQuerySyntax.problem(c.match()).ifPresent(p -> errors.add(at + ".match", p));
            errors.optionalQuery(c.health(), at + ".health", "attribute.lane_state==scoring");
        }
    }
}
