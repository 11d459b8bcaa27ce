package io.qawk.orchestrator.testkit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A simulated device to create: its hawkBit controller id (also used as the target name), the attributes it reports
 * (DDI configData; keys and values ≤ 128 chars, ≤ 100 entries) and its initial {@link Behaviour}.
 */
public record DeviceSpec(String controllerId, Map<String, String> attributes, Behaviour behaviour) {

    public DeviceSpec {
        Objects.requireNonNull(controllerId, "controllerId");
        attributes = Map.copyOf(new LinkedHashMap<>(attributes == null ? Map.of() : attributes));
        behaviour = behaviour == null ? Behaviour.succeed() : behaviour;
    }

    public static DeviceSpec of(String controllerId, Map<String, String> attributes) {
        return new DeviceSpec(controllerId, attributes, Behaviour.succeed());
    }

    public DeviceSpec withBehaviour(Behaviour b) {
        return new DeviceSpec(controllerId, attributes, b);
    }
}
