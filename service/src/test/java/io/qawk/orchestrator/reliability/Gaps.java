package io.qawk.orchestrator.reliability;

import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.RelLanes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the issue-32 tests read of a deployment: the devices of its first order, their states, and the timeline entry
 * that names a stretch nobody observed ({@code not observed 18:25:16–18:26:01 UTC (Qawk was not running); order
 * timeouts extended by 45 s}).
 */
final class Gaps {

    private static final Pattern GAP = Pattern.compile("not observed \\d\\d:\\d\\d:\\d\\d–\\d\\d:\\d\\d:\\d\\d UTC"
            + " \\((.+)\\); order timeouts extended by (\\d+) s");

    private Gaps() {
    }

    /** The order-1 devices of these systems. */
    static List<String> firstOrder(RelLanes lanes, List<String> systems) {
        return systems.stream().flatMap(s -> lanes.devicesOf(s).stream())
                .filter(d -> lanes.role(d).order() == 1).toList();
    }

    /** Whether every one of {@code devices} is in {@code state} in the deployment's runs. */
    static boolean allIn(QawkApi api, int deploymentId, List<String> devices, String state) {
        Map<String, Object> states = new HashMap<>();
        api.runs(deploymentId).forEach(r -> QawkApi.devices(r).forEach(d -> states.put((String) d.get("controllerId"),
                d.get("state"))));
        return devices.stream().allMatch(d -> state.equals(states.get(d)));
    }

    /** The timeline's messages of every run of the deployment, by system. */
    static Map<String, List<String>> messages(QawkApi api, int deploymentId) {
        Map<String, List<String>> out = new TreeMap<>();
        for (Map<String, Object> run : api.runs(deploymentId)) {
            out.put((String) run.get("system"), api.events(deploymentId, QawkApi.runId(run)).stream()
                    .map(e -> (String) e.get("message")).toList());
        }
        return out;
    }

    /** The first entry naming a gap: its cause (group 1) and the seconds the order timeouts were extended (group 2). */
    static Optional<Matcher> gap(List<String> messages) {
        return messages.stream().map(GAP::matcher).filter(Matcher::matches).findFirst();
    }

    /** Every run's state and reason, for a failure message. */
    static String reasons(QawkApi api, int deploymentId) {
        return api.runs(deploymentId).stream().map(r -> r.get("system") + " " + r.get("state") + ": " + r.get("reason"))
                .toList().toString();
    }
}
