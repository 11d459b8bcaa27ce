package io.qawk.orchestrator.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a system runs, or would run: per component the devices filling it and the set ({@code name:version}) each
 * runs, null for a device that runs nothing. A state without device names (a census combination) names each
 * component instead.
 */
public record SystemState(Map<String, List<DeviceSet>> components) {

    /** One device and the set it runs (null: nothing). */
    public record DeviceSet(String device, String set) {
    }

    public SystemState {
        Map<String, List<DeviceSet>> copy = new LinkedHashMap<>();
        components.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        components = copy;
    }

    /** A state from distinct sets per component, with no device names (the census's combinations). */
    public static SystemState ofSets(Map<String, ? extends Collection<String>> sets) {
        Map<String, List<DeviceSet>> out = new LinkedHashMap<>();
        sets.forEach((component, labels) -> {
            List<DeviceSet> devices = new ArrayList<>();
            labels.forEach(l -> devices.add(new DeviceSet(null, l)));
            out.put(component, devices);
        });
        return new SystemState(out);
    }

    /** A builder-style copy with one more device. */
    public SystemState with(String component, String device, String set) {
        Map<String, List<DeviceSet>> copy = new LinkedHashMap<>(components);
        List<DeviceSet> devices = new ArrayList<>(copy.getOrDefault(component, List.of()));
        devices.add(new DeviceSet(device, set));
        copy.put(component, devices);
        return new SystemState(copy);
    }

    public static SystemState empty() {
        return new SystemState(Map.of());
    }

    public List<DeviceSet> devices(String component) {
        return components.getOrDefault(component, List.of());
    }
}
