package io.qawk.orchestrator.systemtype;

import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.rules.RuleSpec;

import java.time.Instant;
import java.util.List;

/**
 * A system type as the API shows it; {@code effectiveGroupKey} is the configured default when none was given;
 * {@code guard} is {@code watch} or {@code hold}; {@code approval} is {@code none} or {@code required}.
 */
public record SystemTypeView(long id, String name, String systemKey, String groupKey, String effectiveGroupKey,
                             List<ComponentView> components, List<RuleSpec> rules, String guard, String approval, Instant createdAt,
                             Instant updatedAt, String updatedBy) {

    /** {@code health}: null when the component names none. */
    public record ComponentView(String componentType, String match, String health) {
    }

    static SystemTypeView of(SystemType t, String defaultGroupKey) {
        return new SystemTypeView(t.id, t.name, t.systemKey, t.groupKey,
                t.groupKey != null ? t.groupKey : defaultGroupKey,
                t.components.stream().map(c -> new ComponentView(c.componentType, c.match, c.health)).toList(),
                List.copyOf(t.rules), t.guard.word(),
                Approval.of(t.approvalRequired).word(), t.createdAt, t.updatedAt, t.updatedBy);
    }
}
