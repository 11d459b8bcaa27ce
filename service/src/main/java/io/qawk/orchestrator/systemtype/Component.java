package io.qawk.orchestrator.systemtype;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/**
 * One component of a system type, the target query that recognises the devices filling it, and optionally the query
 * its devices must keep matching while their system soaks after an update ({@code health}).
 */
@Embeddable
public class Component {

    @Column(name = "component_type", nullable = false)
    public String componentType;

    @Column(name = "match", nullable = false)
    public String match;

    /** FIQL over the target, e.g. {@code attribute.lane_state==scoring}; null: nothing to keep matching. */
    @Column(name = "health")
    public String health;

    public Component() {
    }

    public Component(String componentType, String match, String health) {
        this.componentType = componentType;
        this.match = match;
        this.health = health;
    }
}
