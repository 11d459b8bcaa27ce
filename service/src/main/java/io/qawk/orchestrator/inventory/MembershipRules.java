package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.systemtype.DeviceKey;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decides, without any I/O, which system and component each matched device forms for one system type. */
final class MembershipRules {

    private MembershipRules() {
    }

    /**
     * @param matched    per controller id, the component types whose query matched it (in the type's order)
     * @param devices    what is known of each device (attributes, metadata)
     */
    static List<Membership> classify(long systemTypeId, DeviceKey systemKey, DeviceKey groupKey,
                                     Map<String, List<String>> matched, Map<String, DeviceRecord> devices) {
        List<Membership> out = new ArrayList<>(matched.size());
        matched.forEach((controllerId, components) -> {
            DeviceRecord d = devices.get(controllerId);
            if (d == null) {
                return; // vanished from hawkBit while the sync ran
            }
            String system = systemKey.valueIn(d.attributes(), d.metadata());
            String group = groupKey == null ? null : groupKey.valueIn(d.attributes(), d.metadata());
            if (components.size() > 1) {
                out.add(new Membership(systemTypeId, controllerId, String.join(",", components), system, group,
                        Membership.Problem.AMBIGUOUS_COMPONENT));
            } else if (system == null) {
                out.add(new Membership(systemTypeId, controllerId, components.get(0), null, group,
                        Membership.Problem.NO_SYSTEM_KEY));
            } else {
                out.add(new Membership(systemTypeId, controllerId, components.get(0), system, group, null));
            }
        });
        return out;
    }
}
