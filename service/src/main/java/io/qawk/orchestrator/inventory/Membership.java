package io.qawk.orchestrator.inventory;

/**
 * What one device is for one system type: a component of a named system in a centre, or a problem.
 *
 * @param componentType the component it fills; for an ambiguous device, every component it matched, comma separated
 * @param problem       null, or why the device forms no system
 */
record Membership(long systemTypeId, String controllerId, String componentType, String system, String group,
                  Problem problem) {

    enum Problem {
        /** It matches a component but carries no value for the system key. */
        NO_SYSTEM_KEY,
        /** It matches more than one component of the type. */
        AMBIGUOUS_COMPONENT
    }
}
