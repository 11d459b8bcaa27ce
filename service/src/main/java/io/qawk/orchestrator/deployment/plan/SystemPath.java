package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.rules.Breach;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.SystemState;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One system's real way to a manifest, judged against its type's rules before it moves: from what each device runs
 * now, through each order (during an order its devices finish in any sequence), to the destination, components the
 * manifest does not touch included. Pure: the caller gives what the devices run (the inventory's installed sets) and
 * what the manifest gives them.
 *
 * <p>A system whose way breaks a rule is <b>held</b>. A system that already breaks a rule (drift) may be taken when the
 * manifest mends it: during the first order that changes something only the rules it already breaks may stay broken,
 * and from there on (every later state, and the destination) every rule holds. A broken system the manifest does not
 * mend by then is held too.
 *
 * <p>The states during an order are judged at once, as one state in which each device of the order is listed with its
 * old and its new set: a rule relates a component that some device must trigger to components all of whose devices
 * must meet it, and a component stands on one side of a rule only, so that state breaks a rule exactly when some real
 * sequence of the order's devices finishing does.
 */
public final class SystemPath {

    /** How the reason of a system held by a rule begins ({@code held: lane-07 would run …}); the counts look for it. */
    public static final String HELD = "held: ";

    private SystemPath() {
    }

    /**
     * A device of the system: its component, the set it runs now ({@code name:version}, null for nothing), and, when
     * the manifest names its component, its order and the set it gets ({@code gets} null: the manifest leaves it as it
     * is; equal to {@code runs}: already on it).
     */
    public record Device(String controllerId, String component, String runs, Integer order, String gets) {

        boolean changes() {
            return gets != null && !gets.equals(runs);
        }
    }

    /**
     * The verdict: {@code held} (with the order from which the way breaks it, null when it already does and nothing
     * changes) or clear; {@code mends}: the rule the system breaks now and the manifest mends (null if it breaks none).
     */
    public record Verdict(Breach held, Integer order, Breach mends) {

        public static final Verdict CLEAR = new Verdict(null, null, null);

        public boolean isHeld() {
            return held != null;
        }

        /** What the run's reason says: {@code held: lane-07 would run app:2 with lane-07-c on term:1 at order 2 …}. */
        public String heldWords(String system) {
            return held == null ? null : HELD + system + " would run " + runs(held.trigger()) + " with "
                    + who(held.offender()) + " on " + runs(held.offender())
                    + (order == null ? "" : " at order " + order) + " (rules[" + held.rule() + "] needs "
                    + held.needs() + ") — " + held.why();
        }

        /** What the plan says of a broken system the manifest mends. */
        public String mendsWords() {
            return mends == null ? null : "breaks a rule now and this manifest mends it: " + mends.words();
        }

        private static String who(Breach.Party p) {
            return p.device() != null ? p.device() : p.component();
        }

        private static String runs(Breach.Party p) {
            return p.set() == null ? "nothing" : p.set();
        }
    }

    /** Judges the way of a system of {@code devices} to its manifest; without rules every way is clear. */
    public static Verdict judge(CompatibilityRules rules, List<Device> devices) {
        if (rules.isEmpty()) {
            return Verdict.CLEAR;
        }
        List<Breach> now = rules.breaches(state(devices, Integer.MIN_VALUE, false));
        Set<Integer> brokenNow = new HashSet<>();
        now.forEach(b -> brokenNow.add(b.rule()));
        TreeSet<Integer> orders = new TreeSet<>();
        devices.stream().filter(Device::changes).forEach(d -> orders.add(d.order()));
        if (orders.isEmpty()) {
            // nothing moves: it stays as it is, broken or not
            return now.isEmpty() ? Verdict.CLEAR : new Verdict(now.get(0), null, null);
        }
        boolean first = true;
        for (int order : orders) {
            for (Breach b : rules.breaches(state(devices, order, true))) {
                if (!(first && brokenNow.contains(b.rule()))) {
                    return new Verdict(b, order, null);
                }
            }
            first = false;
        }
        Optional<Breach> destination = rules.firstBreach(state(devices, Integer.MAX_VALUE, false));
        if (destination.isPresent()) {
            return new Verdict(destination.get(), orders.last(), null);
        }
        return new Verdict(null, null, now.isEmpty() ? null : now.get(0));
    }

    /**
     * The system during {@code order} ({@code during}: its changing devices listed with old and new set), or after
     * every order below {@code order} finished: devices of lower orders on their new sets, the others as they are.
     */
    static SystemState state(List<Device> devices, int order, boolean during) {
        SystemState s = SystemState.empty();
        for (Device d : devices) {
            if (!d.changes() || d.order() > order) {
                s = s.with(d.component(), d.controllerId(), d.runs());
            } else if (d.order() < order) {
                s = s.with(d.component(), d.controllerId(), d.gets());
            } else if (during) {
                s = s.with(d.component(), d.controllerId(), d.runs()).with(d.component(), d.controllerId(), d.gets());
            } else {
                s = s.with(d.component(), d.controllerId(), d.runs());
            }
        }
        return s;
    }
}
