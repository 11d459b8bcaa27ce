package io.qawk.orchestrator.systemtype;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** One component of a system type, and the target query that recognises the devices filling it. */
@Embeddable
public class Component {

    @Column(name = "component_type", nullable = false)
    public String componentType;

    @Column(name = "match", nullable = false)
    public String match;

    public Component() {
    }

    public Component(String componentType, String match) {
        this.componentType = componentType;
        this.match = match;
    }
}
