package io.qawk.orchestrator.systemtype;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.rules.RuleSpec;

import java.util.List;

/**
 * The body of a create or replace: a name, the system key, an optional group key, the components and optionally the
 * compatibility rules between them ({@code rules}; absent or empty: any mix is allowed), and what the guard does
 * about hawkBit work outside Qawk that would move its systems ({@code guard}: {@code watch}, the default, or
 * {@code hold}), and whether its deployments need four eyes ({@code approval}: {@code none}, the default, or
 * {@code required}).
 *
 * <p>On {@code PUT} a field left out keeps its stored value and a component given again (by its {@code componentType})
 * keeps the fields it leaves out; {@code PATCH} takes a JSON Merge Patch of this shape ({@code common/Updates}).
 * {@code null} clears: {@code rules} to none, {@code groupKey} to the configured default, {@code guard} to
 * {@code watch}, {@code approval} to {@code none}, a component's {@code health} to none.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record SystemTypeRequest(String name, String systemKey, String groupKey, List<ComponentRequest> components,
                                List<RuleSpec> rules, String guard, String approval) {

    public SystemTypeRequest(String name, String systemKey, String groupKey, List<ComponentRequest> components,
                             List<RuleSpec> rules, String guard) {
        this(name, systemKey, groupKey, components, rules, guard, null);
    }

    public SystemTypeRequest(String name, String systemKey, String groupKey, List<ComponentRequest> components,
                             List<RuleSpec> rules) {
        this(name, systemKey, groupKey, components, rules, null);
    }

    public SystemTypeRequest(String name, String systemKey, String groupKey, List<ComponentRequest> components) {
        this(name, systemKey, groupKey, components, null);
    }

    /** What is stored, as a request: the shape a PUT's missing fields and a PATCH are merged into. */
    public static SystemTypeRequest of(SystemType t) {
        return new SystemTypeRequest(t.name, t.systemKey, t.groupKey, t.components.stream()
                .map(c -> new ComponentRequest(c.componentType, c.match, c.health)).toList(), List.copyOf(t.rules),
                t.guard.word(), Approval.of(t.approvalRequired).word());
    }

    /** {@code health}: optional, the query its devices must keep matching during a soak. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record ComponentRequest(String componentType, String match, String health) {
    }
}
