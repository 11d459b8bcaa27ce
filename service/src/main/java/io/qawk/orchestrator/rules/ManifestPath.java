package io.qawk.orchestrator.rules;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a manifest's way against the rules, and finds the orders the rules imply when a manifest gives none. Pure.
 *
 * <p>What a system runs before is not known here, so each component the manifest names is taken to run some other set
 * before ("old"), as bad as it can be while the starting state itself keeps the rule: an old set may meet a rule's
 * {@code if} and may miss its {@code then}. The states checked are the destination, the state after each order, and
 * every state during an order, where each component of that order may be old, half-way (some devices done) or new.
 * A rule naming a component the manifest leaves out cannot be judged without the system, and is left to the plan.
 * <p>One class: checking a way and deriving orders walk the same states, so they share how a state is built.
 */
public final class ManifestPath {

    private ManifestPath() {
    }

    /** What a component goes to and in which order ({@code order} null: not given). */
    public record Step(String component, String set, Integer order) {
    }

    /**
     * Why the way breaks a rule: the component whose order (or set) is at fault, the words, and the order that would
     * work for it ({@code suggestedOrder}, null when no order helps).
     */
    public record Problem(String component, String words, Integer suggestedOrder) {
    }

    /** The orders the rules imply, or why there are none. */
    public record Derived(Map<String, Integer> orders, Optional<Problem> problem) {
    }

    private enum Phase { OLD, MID, NEW }

    /** The first problem of the way the steps describe (all with an order); empty when every state keeps the rules. */
    public static Optional<Problem> check(CompatibilityRules rules, List<Step> steps) {
        Map<String, Step> byComponent = byComponent(steps);
        for (Rule rule : rules.rules()) {
            if (!covered(rule, byComponent)) {
                continue;
            }
            Optional<Breach> atEnd = CompatibilityRules.breach(rule, destination(byComponent));
            if (atEnd.isPresent()) {
                Breach b = atEnd.get();
                return Optional.of(new Problem(b.offender().component(), "the manifest's destination breaks "
                        + rule.path() + ": " + b.trigger().component() + " on " + b.trigger().set() + " needs "
                        + b.needs() + ", the manifest gives it " + b.offender().set() + " — " + rule.why()
                        + " (no order helps: change the sets or the rule)", null));
            }
            Optional<String> during = transitional(rule, byComponent);
            if (during.isPresent()) {
                return Optional.of(withSuggestion(rules, steps, during.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * The orders the rules imply for these components and sets: fewest orders, a component after every one it must
     * follow, equal where nothing constrains (all 1 without rules); with the problem when no order keeps the rules.
     */
    public static Derived derive(CompatibilityRules rules, Map<String, String> sets) {
        Map<String, Set<String>> after = precedence(rules, sets);
        Map<String, Integer> orders = layers(sets.keySet(), after, Map.of());
        if (orders == null) {
            return new Derived(Map.of(), Optional.of(new Problem(sets.keySet().iterator().next(),
                    "no order keeps the rules: " + cycleWords(after), null)));
        }
        List<Step> steps = new ArrayList<>();
        sets.forEach((c, s) -> steps.add(new Step(c, s, orders.get(c))));
        return new Derived(orders, check(rules, steps));
    }

    private static Problem withSuggestion(CompatibilityRules rules, List<Step> steps, String words) {
        Map<String, String> sets = new LinkedHashMap<>();
        Map<String, Integer> given = new LinkedHashMap<>();
        steps.forEach(s -> {
            sets.put(s.component(), s.set());
            given.put(s.component(), s.order());
        });
        Map<String, Set<String>> after = precedence(rules, sets);
        Map<String, Integer> fixed = layers(sets.keySet(), after, given);
        if (fixed == null) {
            return new Problem(steps.get(0).component(), words + "; no order keeps the rules: " + cycleWords(after),
                    null);
        }
        for (String c : sets.keySet()) {
            if (!fixed.get(c).equals(given.get(c))) {
                String before = after.get(c).stream().max((a, b) -> Integer.compare(fixed.get(a), fixed.get(b)))
                        .orElseThrow();
                return new Problem(c, words + "; put " + c + " after " + before + ": order " + fixed.get(c),
                        fixed.get(c));
            }
        }
        return new Problem(steps.get(0).component(), words, null);
    }

    /**
     * For each component, those that must be done before it starts, pair by pair within each rule: a component of
     * {@code then} whose new set meets the rule goes before a component of {@code if} whose new set triggers it;
     * an {@code if} component whose new set no longer triggers it goes before a {@code then} component whose new set
     * no longer meets it.
     */
    static Map<String, Set<String>> precedence(CompatibilityRules rules, Map<String, String> sets) {
        Map<String, Set<String>> after = new LinkedHashMap<>();
        sets.keySet().forEach(c -> after.put(c, new TreeSet<>()));
        for (Rule rule : rules.rules()) {
            if (!rule.when().keySet().stream().allMatch(sets::containsKey)
                    || !rule.then().keySet().stream().allMatch(sets::containsKey)) {
                continue;
            }
            rule.when().forEach((a, p) -> rule.then().forEach((b, q) -> {
                boolean triggers = p.matches(sets.get(a));
                boolean meets = q.matches(sets.get(b));
                if (triggers && meets) {
                    after.get(a).add(b);
                } else if (!triggers && !meets) {
                    after.get(b).add(a);
                }
            }));
        }
        return after;
    }

    /**
     * Each component's order: at least its {@code floor} (the order given, if any) and one more than every component
     * it must follow; null when the precedence has a cycle.
     */
    private static Map<String, Integer> layers(Set<String> components, Map<String, Set<String>> after,
                                               Map<String, Integer> floor) {
        Map<String, Integer> out = new LinkedHashMap<>();
        Set<String> visiting = new LinkedHashSet<>();
        for (String c : components) {
            if (layer(c, after, floor, out, visiting) == null) {
                return null;
            }
        }
        return out;
    }

    private static Integer layer(String c, Map<String, Set<String>> after, Map<String, Integer> floor,
                                 Map<String, Integer> done, Set<String> visiting) {
        if (done.containsKey(c)) {
            return done.get(c);
        }
        if (!visiting.add(c)) {
            return null;
        }
        int order = floor.get(c) == null ? 1 : floor.get(c);
        for (String before : after.get(c)) {
            Integer o = layer(before, after, floor, done, visiting);
            if (o == null) {
                return null;
            }
            order = Math.max(order, o + 1);
        }
        visiting.remove(c);
        done.put(c, order);
        return order;
    }

    private static String cycleWords(Map<String, Set<String>> after) {
        List<String> pairs = new ArrayList<>();
        after.forEach((c, befores) -> befores.forEach(b -> pairs.add(b + " before " + c)));
        return String.join(", ", pairs);
    }

    private static Map<String, Step> byComponent(List<Step> steps) {
        Map<String, Step> out = new LinkedHashMap<>();
        steps.forEach(s -> out.put(s.component(), s));
        return out;
    }

    private static boolean covered(Rule rule, Map<String, Step> steps) {
        return rule.when().keySet().stream().allMatch(steps::containsKey)
                && rule.then().keySet().stream().allMatch(steps::containsKey);
    }

    private static SystemState destination(Map<String, Step> steps) {
        SystemState s = SystemState.empty();
        for (Step step : steps.values()) {
            s = s.with(step.component(), null, step.set());
        }
        return s;
    }

    /**
     * A state on the way that breaks the rule for some old sets that keep it, in words; empty when there is none.
     * Brute force over the rule's components (at most {@link CompatibilityRules#MAX_RULE_COMPONENTS}): each one's old
     * set meeting its pattern or not, and each one of the order under way old, half-way or new.
     */
    private static Optional<String> transitional(Rule rule, Map<String, Step> steps) {
        List<String> comps = new ArrayList<>(rule.when().keySet());
        comps.addAll(rule.then().keySet());
        int n = comps.size();
        boolean[] isWhen = new boolean[n];
        boolean[] fresh = new boolean[n];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            String c = comps.get(i);
            isWhen[i] = rule.when().containsKey(c);
            SetPattern p = isWhen[i] ? rule.when().get(c) : rule.then().get(c);
            fresh[i] = p.matches(steps.get(c).set());
            order[i] = steps.get(c).order();
        }
        TreeSet<Integer> orders = new TreeSet<>();
        for (int o : order) {
            orders.add(o);
        }
        for (int k : orders) {
            for (int old = 0; old < (1 << n); old++) {
                if (breaks(isWhen, bits(old, n), fresh, allOld(n))) {
                    continue; // the state before would already break it: not this manifest's doing
                }
                Deque<Phase[]> phases = phasesAt(order, k);
                for (Phase[] ph : phases) {
                    if (breaks(isWhen, bits(old, n), fresh, ph)) {
                        return Optional.of(words(rule, comps, steps, bits(old, n), fresh, ph, isWhen, k));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Deque<Phase[]> phasesAt(int[] order, int k) {
        Deque<Phase[]> out = new ArrayDeque<>();
        out.add(new Phase[order.length]);
        for (int i = 0; i < order.length; i++) {
            int size = out.size();
            for (int j = 0; j < size; j++) {
                Phase[] p = out.poll();
                if (order[i] < k) {
                    out.add(set(p, i, Phase.NEW));
                } else if (order[i] > k) {
                    out.add(set(p, i, Phase.OLD));
                } else {
                    for (Phase ph : Phase.values()) {
                        out.add(set(p, i, ph));
                    }
                }
            }
        }
        return out;
    }

    private static Phase[] set(Phase[] p, int i, Phase ph) {
        Phase[] copy = p.clone();
        copy[i] = ph;
        return copy;
    }

    private static Phase[] allOld(int n) {
        Phase[] p = new Phase[n];
        Arrays.fill(p, Phase.OLD);
        return p;
    }

    private static boolean[] bits(int mask, int n) {
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) {
            out[i] = (mask & (1 << i)) != 0;
        }
        return out;
    }

    /** Whether the rule breaks: every {@code if} component has a device meeting it, some {@code then} device misses. */
    private static boolean breaks(boolean[] isWhen, boolean[] old, boolean[] fresh, Phase[] ph) {
        boolean triggered = true;
        boolean missed = false;
        for (int i = 0; i < isWhen.length; i++) {
            if (isWhen[i]) {
                triggered &= switch (ph[i]) {
                    case OLD -> old[i];
                    case NEW -> fresh[i];
                    case MID -> old[i] || fresh[i];
                };
            } else {
                missed |= misses(ph[i], old[i], fresh[i]);
            }
        }
        return triggered && missed;
    }

    /** Whether a {@code then} component in this phase has a device that misses its pattern. */
    private static boolean misses(Phase ph, boolean old, boolean fresh) {
        return switch (ph) {
            case OLD -> !old;
            case NEW -> !fresh;
            case MID -> !(old && fresh);
        };
    }

    private static String words(Rule rule, List<String> comps, Map<String, Step> steps, boolean[] old, boolean[] fresh,
                                Phase[] ph, boolean[] isWhen, int k) {
        String trigger = null;
        String offender = null;
        boolean triggerIsNew = false;
        boolean offenderIsNew = false;
        for (int i = 0; i < comps.size(); i++) {
            String c = comps.get(i);
            SetPattern p = isWhen[i] ? rule.when().get(c) : rule.then().get(c);
            boolean newCounts = ph[i] != Phase.OLD && (isWhen[i] ? fresh[i] : !fresh[i]);
            String said = newCounts ? c + " on " + steps.get(c).set()
                    : c + " still on its old set" + (isWhen[i] ? " (" + p + ")" : " (not " + p + ")");
            if (isWhen[i]) {
                if (trigger == null || (newCounts && !triggerIsNew)) {
                    trigger = said;
                    triggerIsNew = newCounts;
                }
            } else if (misses(ph[i], old[i], fresh[i]) && (offender == null || (newCounts && !offenderIsNew))) {
                offender = said;
                offenderIsNew = newCounts;
            }
        }
        return "order " + k + " can leave " + trigger + " with " + offender + ", which " + rule.path()
                + " forbids — " + rule.why();
    }
}
