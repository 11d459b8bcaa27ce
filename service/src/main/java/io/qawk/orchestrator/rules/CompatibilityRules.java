package io.qawk.orchestrator.rules;

import io.qawk.orchestrator.common.FieldErrors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A system type's compatibility rules, read, and the one evaluator of them: given any state of a system (component →
 * the set each of its devices runs), whether it is allowed and, if not, which rule it breaks and through which
 * devices. Pure: no database, hawkBit or clock; the census, the manifest check and the deployment planner all ask it.
 */
public final class CompatibilityRules {

    /** At most this many rules per system type. */
    public static final int MAX_RULES = 100;
    /** At most this many components in one rule, {@code if} and {@code then} together. */
    public static final int MAX_RULE_COMPONENTS = 6;
    /** At most this many characters of {@code why}. */
    public static final int MAX_WHY = 500;

    private static final CompatibilityRules NONE = new CompatibilityRules(List.of());

    private final List<Rule> rules;

    private CompatibilityRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public static CompatibilityRules none() {
        return NONE;
    }

    /**
     * Reads the rules, checking each against the type's components; every problem goes to {@code errors} with its
     * field path ({@code rules[0].then.device2}). Returns what could be read (complete only when no error was added).
     */
    public static CompatibilityRules parse(List<RuleSpec> specs, Collection<String> components, FieldErrors errors) {
        if (specs == null || specs.isEmpty()) {
            return NONE;
        }
        if (!errors.check(specs.size() <= MAX_RULES, "rules", "at most " + MAX_RULES + " rules (got " + specs.size()
                + ")")) {
            return NONE;
        }
        List<Rule> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            RuleSpec s = specs.get(i);
            String at = "rules[" + i + "]";
            if (s == null) {
                errors.add(at, "must be an object with if, then and why");
                continue;
            }
            Map<String, SetPattern> when = side(s.when(), at + ".if", components, errors);
            Map<String, SetPattern> then = side(s.then(), at + ".then", components, errors);
            if (errors.text(s.why(), at + ".why", MAX_WHY) && when != null && then != null
                    && consistent(when, then, at, errors)
                    && errors.check(when.size() + then.size() <= MAX_RULE_COMPONENTS, at,
                    "names " + (when.size() + then.size()) + " components; a rule names at most "
                            + MAX_RULE_COMPONENTS + " (split it into several rules)")) {
                out.add(new Rule(i, when, then, s.why().strip()));
            }
        }
        return new CompatibilityRules(out);
    }

    /** Reads rules already stored (checked when they were written); an unreadable one is an error of the store. */
    public static CompatibilityRules of(List<RuleSpec> specs, Collection<String> components) {
        FieldErrors errors = new FieldErrors();
        CompatibilityRules rules = parse(specs, components, errors);
        if (!errors.isEmpty()) {
            throw new IllegalStateException("stored compatibility rules do not read: " + errors);
        }
        return rules;
    }

    private static Map<String, SetPattern> side(Map<String, String> side, String at, Collection<String> components,
                                                FieldErrors errors) {
        if (side == null || side.isEmpty()) {
            errors.add(at, "is required: at least one component and the sets it runs, e.g. {\"device1\": \"app:[2.0,)\"}");
            return null;
        }
        Map<String, SetPattern> out = new LinkedHashMap<>();
        boolean ok = true;
        for (Map.Entry<String, String> e : side.entrySet()) {
            String field = at + "." + e.getKey();
            if (!components.contains(e.getKey())) {
                errors.add(field, "'" + e.getKey() + "' is not a component of this system type (its components: "
                        + String.join(", ", components) + ")");
                ok = false;
                continue;
            }
            try {
                out.put(e.getKey(), SetPattern.parse(e.getValue()));
            } catch (SetPattern.Unreadable u) {
                errors.add(field, u.getMessage());
                ok = false;
            }
        }
        return ok ? out : null;
    }

    /**
     * A component may not stand on both sides: its devices are updated side by side, so for a moment they always
     * differ, and a rule tying them to each other could not hold through an update (and, with patterns that share no
     * set, could never hold at all).
     */
    private static boolean consistent(Map<String, SetPattern> when, Map<String, SetPattern> then, String at,
                                      FieldErrors errors) {
        boolean ok = true;
        for (Map.Entry<String, SetPattern> e : then.entrySet()) {
            SetPattern condition = when.get(e.getKey());
            if (condition == null) {
                continue;
            }
            ok = false;
            if (condition.disjointFrom(e.getValue())) {
                errors.add(at + ".then." + e.getKey(), "can never hold: a device of " + e.getKey() + " on a set of "
                        + condition + " would have to run " + e.getValue() + " too, and no set is both");
            } else {
                errors.add(at + ".then." + e.getKey(), "'" + e.getKey() + "' is also in if: a rule relates one "
                        + "component to others (its own devices are updated side by side and differ for a moment)");
            }
        }
        return ok;
    }

    public List<Rule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Every rule the state breaks, in the rules' order (at most one breach per rule). */
    public List<Breach> breaches(SystemState state) {
        List<Breach> out = new ArrayList<>();
        for (Rule r : rules) {
            breach(r, state).ifPresent(out::add);
        }
        return out;
    }

    /** The first rule the state breaks; empty when the state is allowed. */
    public Optional<Breach> firstBreach(SystemState state) {
        for (Rule r : rules) {
            Optional<Breach> b = breach(r, state);
            if (b.isPresent()) {
                return b;
            }
        }
        return Optional.empty();
    }

    public boolean allows(SystemState state) {
        return firstBreach(state).isEmpty();
    }

    /** Whether {@code state} breaks {@code rule}: every {@code if} met by some device, some {@code then} device not. */
    static Optional<Breach> breach(Rule rule, SystemState state) {
        Breach.Party trigger = null;
        for (Map.Entry<String, SetPattern> e : rule.when().entrySet()) {
            SystemState.DeviceSet hit = state.devices(e.getKey()).stream()
                    .filter(d -> e.getValue().matches(d.set())).findFirst().orElse(null);
            if (hit == null) {
                return Optional.empty();
            }
            if (trigger == null) {
                trigger = new Breach.Party(e.getKey(), hit.device(), hit.set());
            }
        }
        for (Map.Entry<String, SetPattern> e : rule.then().entrySet()) {
            for (SystemState.DeviceSet d : state.devices(e.getKey())) {
                if (!e.getValue().matches(d.set())) {
                    return Optional.of(new Breach(rule.index(), rule.why(), trigger,
                            new Breach.Party(e.getKey(), d.device(), d.set()), e.getKey() + " on " + e.getValue()));
                }
            }
        }
        return Optional.empty();
    }
}
