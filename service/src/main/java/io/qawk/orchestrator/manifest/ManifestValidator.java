package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.ManifestPath;
import io.qawk.orchestrator.systemtype.SystemType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Checks a manifest request completely and reports every problem with its JSON path. The system type and the
 * distribution sets are looked up through the functions given, so the rules can be tested without a database or
 * hawkBit.
 */
final class ManifestValidator {

    static final int MAX_COMPONENTS = 100;
    static final int MIN_ORDER = 1;
    static final int MAX_ORDER = 1000;
    /** The same rule as for system type names. */

    private ManifestValidator() {
    }

    /**
     * What a valid request resolves to: its distribution sets by id, and each component's order (as given, or as the
     * type's compatibility rules imply when the request gives none).
     */
    record Validated(Map<Long, DistributionSetRef> sets, Map<String, Integer> orders) {
    }

    /**
     * Validates the request; throws {@link io.qawk.orchestrator.common.InvalidRequestException} listing every problem.
     * With the type's compatibility rules, the manifest's way must keep them (see {@link ManifestPath}).
     */
    static Validated validate(ManifestRequest r, LongFunction<Optional<SystemType>> systemTypes,
                              LongFunction<Optional<DistributionSetRef>> sets) {
        FieldErrors errors = new FieldErrors();
        if (r == null) {
            errors.add("", "a JSON body with name, systemTypeId and components is required").throwIfAny();
            return new Validated(Map.of(), Map.of());
        }
        errors.name(r.name(), "name");
        SystemType type = null;
        if (r.systemTypeId() == null) {
            errors.add("systemTypeId", "is required");
        } else {
            type = systemTypes.apply(r.systemTypeId()).orElse(null);
            errors.check(type != null, "systemTypeId", "system type " + r.systemTypeId() + " does not exist");
        }
        CompatibilityRules rules = type == null ? CompatibilityRules.none() : type.compatibility();
        Map<Long, DistributionSetRef> found = validateComponents(r.components(), type, !rules.isEmpty(), sets, errors);
        errors.throwIfAny();
        Map<String, Integer> orders = orders(r.components(), rules, found, errors);
        errors.throwIfAny();
        return new Validated(found, orders);
    }

    /**
     * The orders: as given, checked against the rules (every state on the way must keep them); or, when none is given
     * (allowed only with rules), the ones the rules imply.
     */
    private static Map<String, Integer> orders(List<ManifestRequest.ComponentRequest> components,
                                               CompatibilityRules rules, Map<Long, DistributionSetRef> found,
                                               FieldErrors errors) {
        Map<String, Integer> index = new LinkedHashMap<>();
        Map<String, String> setOf = new LinkedHashMap<>();
        List<ManifestPath.Step> steps = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            ManifestRequest.ComponentRequest c = components.get(i);
            index.put(c.componentType(), i);
            setOf.put(c.componentType(), found.get(c.distributionSetId()).label());
            steps.add(new ManifestPath.Step(c.componentType(), setOf.get(c.componentType()), c.order()));
        }
        if (components.stream().allMatch(c -> c.order() == null)) {
            ManifestPath.Derived derived = ManifestPath.derive(rules, setOf);
            derived.problem().ifPresent(p -> errors.add("components[" + index.get(p.component()) + "].order",
                    "no order can be derived: " + p.words()));
            return derived.orders();
        }
        ManifestPath.check(rules, steps).ifPresent(p -> errors.add("components[" + index.get(p.component())
                + "].order", p.words()));
        Map<String, Integer> out = new LinkedHashMap<>();
        components.forEach(c -> out.put(c.componentType(), c.order()));
        return out;
    }

    private static Map<Long, DistributionSetRef> validateComponents(List<ManifestRequest.ComponentRequest> components,
            SystemType type, boolean hasRules, LongFunction<Optional<DistributionSetRef>> sets, FieldErrors errors) {
        Map<Long, DistributionSetRef> found = new HashMap<>();
        if (components == null || components.isEmpty()) {
            errors.add("components", "at least one component is required");
            return found;
        }
        if (!errors.check(components.size() <= MAX_COMPONENTS, "components",
                "at most " + MAX_COMPONENTS + " components (got " + components.size() + ")")) {
            return found;
        }
        Set<String> seen = new HashSet<>();
        Map<Long, Optional<DistributionSetRef>> looked = new HashMap<>();
        for (int i = 0; i < components.size(); i++) {
            ManifestRequest.ComponentRequest c = components.get(i);
            String at = "components[" + i + "]";
            if (c == null) {
                errors.add(at, "must be an object with componentType, distributionSetId and order");
                continue;
            }
            if (errors.text(c.componentType(), at + ".componentType", 128)) {
                if (type != null) {
                    errors.check(type.component(c.componentType()).isPresent(), at + ".componentType",
                            "'" + c.componentType() + "' is not a component of system type '" + type.name
                                    + "' (its components: " + componentTypes(type) + ")");
                }
                errors.check(seen.add(c.componentType()), at + ".componentType",
                        "'" + c.componentType() + "' appears more than once");
            }
            if (c.order() == null) {
                boolean noneGiven = components.stream().allMatch(o -> o == null || o.order() == null);
                if (!hasRules) {
                    errors.add(at + ".order", "is required (" + MIN_ORDER + "–" + MAX_ORDER + ", lower goes first); "
                            + "only a system type with compatibility rules derives the orders of a manifest that gives "
                            + "none");
                } else if (!noneGiven) {
                    errors.add(at + ".order", "is required when other components have one: give every component an "
                            + "order, or none to have the system type's rules derive them");
                }
            } else {
                errors.check(c.order() >= MIN_ORDER && c.order() <= MAX_ORDER, at + ".order",
                        "must be between " + MIN_ORDER + " and " + MAX_ORDER + " (got " + c.order() + ")");
            }
            errors.optionalQuery(c.verify(), at + ".verify", "attribute.app_version==2.0");
            Long id = c.distributionSetId();
            if (id == null) {
                errors.add(at + ".distributionSetId", "is required");
            } else if (id <= 0) {
                errors.add(at + ".distributionSetId", "must be a positive distribution set id (got " + id + ")");
            } else {
                Optional<DistributionSetRef> set = looked.computeIfAbsent(id, sets::apply);
                if (set.isEmpty()) {
                    errors.add(at + ".distributionSetId", "distribution set " + id + " does not exist in hawkBit");
                } else if (!set.get().complete()) {
                    errors.add(at + ".distributionSetId", "distribution set " + id + " (" + set.get().label()
                            + ") is incomplete: a mandatory software module is missing, so hawkBit cannot assign it");
                } else {
                    found.put(id, set.get());
                }
            }
        }
        return found;
    }

    private static String componentTypes(SystemType type) {
        return String.join(", ", type.components.stream().map(c -> c.componentType).toList());
    }
}
