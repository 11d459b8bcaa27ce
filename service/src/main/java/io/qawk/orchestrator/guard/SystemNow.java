package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.systemtype.GuardMode;

import java.util.List;

/** A discovered system as the last sync found it: its type's rules and guard, and each member's installed set. */
record SystemNow(long systemTypeId, String systemType, String system, CompatibilityRules rules, GuardMode guard,
        List<Member> members) {

    /** A member device, its component and the set it runs ({@code name:version}, null: none). */
    record Member(String component, String device, String set) {
    }

    SystemNow {
        members = List.copyOf(members);
    }

    /** Identifies a system across types. */
    record Key(long systemTypeId, String system) {
    }

    Key key() {
        return new Key(systemTypeId, system);
    }
}
