package io.qawk.orchestrator.testkit.reliability;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the API shows of a deployment at one moment: its runs, each run's photographed devices (with the set each
 * ran) and each run's event ids. Used before a kill and after the restart: nothing seen before may be gone after,
 * and a photograph, once taken, never changes.
 */
public record Census(int deploymentId, Map<Long, String> runStates, Map<String, Long> photo,
                     Map<Long, Set<Long>> eventIds) {

    public static Census read(QawkApi api, int deploymentId) {
        Map<Long, String> states = new LinkedHashMap<>();
        Map<String, Long> photo = new LinkedHashMap<>();
        Map<Long, Set<Long>> events = new LinkedHashMap<>();
        for (Map<String, Object> run : api.runs(deploymentId)) {
            long runId = QawkApi.runId(run);
            states.put(runId, (String) run.get("state"));
            for (Map<String, Object> d : QawkApi.devices(run)) {
                Object from = d.get("fromSetId");
                photo.put(runId + "/" + d.get("controllerId"), from == null ? -1L : ((Number) from).longValue());
            }
            Set<Long> ids = new LinkedHashSet<>();
            api.events(deploymentId, runId).forEach(e -> ids.add(((Number) e.get("id")).longValue()));
            events.put(runId, ids);
        }
        return new Census(deploymentId, states, photo, events);
    }

    public int runs() {
        return runStates.size();
    }

    public int runDevices() {
        return photo.size();
    }

    public int events() {
        return eventIds.values().stream().mapToInt(Set::size).sum();
    }

    /** What this census saw that {@code later} no longer shows (empty: nothing lost). */
    public List<String> lostIn(Census later) {
        List<String> lost = new ArrayList<>();
        for (Long run : runStates.keySet()) {
            if (!later.runStates.containsKey(run)) {
                lost.add("run " + run + " is gone");
            }
        }
        photo.forEach((key, from) -> {
            if (!later.photo.containsKey(key)) {
                lost.add("photographed device " + key + " is gone");
            } else if (!Objects.equals(later.photo.get(key), from)) {
                lost.add("photograph of " + key + " changed from set " + from + " to " + later.photo.get(key));
            }
        });
        eventIds.forEach((run, ids) -> {
            Set<Long> after = later.eventIds.getOrDefault(run, Set.of());
            ids.stream().filter(id -> !after.contains(id)).forEach(id -> lost.add("event " + id + " of run " + run + " is gone"));
        });
        return lost;
    }

    @Override
    public String toString() {
        return runs() + " runs, " + runDevices() + " run devices, " + events() + " events";
    }
}
