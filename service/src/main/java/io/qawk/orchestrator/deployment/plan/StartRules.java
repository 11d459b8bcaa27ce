package io.qawk.orchestrator.deployment.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a pending system may be started at this moment, decided from what was read of it; the engine asks it just
 * before a system would start, and the plan preview asks it for every system not yet started:
 * <ul>
 * <li>another deployment drives it (a run of it, or of a system sharing one of its devices, is under way): it waits
 *     until that run ended — one system, one driver;</li>
 * <li>a system none of whose devices is in the inventory any more has vanished (the scheduler gives it up, never
 *     counted as updated);</li>
 * <li>a channel's deployment starts a system only while it is whole in the channel: a mixed system stays pending;</li>
 * <li>a system whose way to the manifest, from what its devices run now, would break one of its type's compatibility
 *     rules is held ({@link SystemPath}): it stays pending, with the device, its set and the rule in its reason, and
 *     starts when what it runs changes so that its way keeps the rules.</li>
 * </ul>
 * A halted release is the scheduler's business (it still starts systems taken again); {@link #HALTED} is its words.
 */
public final class StartRules {

    private StartRules() {
    }

    /**
     * Why a system does not start now; {@code vanished} when none of its devices is in the inventory any more;
     * {@code held} when its way breaks a rule.
     */
    public record Verdict(String reason, boolean vanished, boolean held) {
        public Verdict(String reason, boolean vanished) {
            this(reason, vanished, false);
        }
    }

    /**
     * A device of a system as the inventory has it: whether it is in the deployment's channel (and not in conflict
     * there), and the channels it is in ({@code channels}, null: none).
     */
    public record Member(String controllerId, boolean inChannel, String channels) {
    }

    /** Another deployment that drives a system now: its name and id. */
    public record DrivenBy(String deployment, long deploymentId) {
    }

    public static final String HALTED = "waiting: the channel's release is halted; resume it on the channel";

    /**
     * The systems of {@code names} that may not start now for who drives them, whether they are still there, and
     * (for a channel's deployment, {@code inChannel}) whether they are whole in the channel; the others are absent.
     * {@code members}: each system's devices (absent: none is in the inventory any more); {@code drivenBy}: the
     * systems another deployment drives. Their ways are judged after, for the systems left ({@link #held}).
     */
    public static Map<String, Verdict> blocked(List<String> names, boolean inChannel,
                                               Map<String, List<Member>> members, Map<String, DrivenBy> drivenBy) {
        Map<String, Verdict> out = new LinkedHashMap<>();
        drivenBy.forEach((name, driver) -> out.putIfAbsent(name,
                new Verdict(waitingFor(driver.deployment(), driver.deploymentId()), false)));
        for (String name : names) {
            List<Member> own = members.get(name);
            if (own == null) {
                out.putIfAbsent(name, new Verdict(RunScheduler.Start.GIVEN_UP, true));
            } else if (inChannel) {
                TreeMap<String, String> outside = new TreeMap<>();
                for (Member dev : own) {
                    if (!dev.inChannel()) {
                        outside.put(dev.controllerId(), dev.channels() == null ? "no channel" : dev.channels());
                    }
                }
                if (outside.size() == own.size()) {
                    out.putIfAbsent(name, new Verdict("its devices are not in the deployment's channel", false));
                } else if (!outside.isEmpty()) {
                    Map.Entry<String, String> first = outside.firstEntry();
                    out.putIfAbsent(name, new Verdict("mixed: " + first.getKey() + " is in " + first.getValue()
                            + (outside.size() > 1 ? " (and " + (outside.size() - 1)
                            + " more device(s) outside the channel)" : ""), false));
                }
            }
        }
        return out;
    }

    /** The systems whose way to the manifest ({@code paths}, judged by {@link SystemPath}) breaks a rule. */
    public static Map<String, Verdict> held(Map<String, SystemPath.Verdict> paths) {
        Map<String, Verdict> out = new LinkedHashMap<>();
        paths.forEach((name, path) -> {
            if (path.isHeld()) {
                out.put(name, new Verdict(path.heldWords(name), false, true));
            }
        });
        return out;
    }

    public static String waitingFor(String deployment, long id) {
        return "waiting for deployment \"" + deployment + "\" (#" + id + ") to finish with this system";
    }
}
