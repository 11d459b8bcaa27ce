package io.qawk.orchestrator.inventory;

import java.util.List;
import java.util.Map;

/**
 * The manifests of a system type as the census compares systems with them. The manifests implement this, so that the
 * inventory does not depend on them.
 */
public interface ManifestTargets {

    /** Every manifest of the type, by name. */
    List<Target> of(long systemTypeId);

    /**
     * A manifest: its id, name, the revision its current content was frozen as when a deployment started with it (null
     * when it was edited since, or never deployed), and per component the set ({@code name:version}) it goes to.
     */
    record Target(long id, String name, Integer revision, Map<String, String> sets) {

        /**
         * Whether a system running {@code versions} (component → its devices' distinct sets) is fully on this
         * manifest: every device of each component the manifest names runs its set, and it has at least one of them.
         */
        public boolean heldBy(Map<String, List<String>> versions) {
            boolean any = false;
            for (Map.Entry<String, String> e : sets.entrySet()) {
                List<String> runs = versions.get(e.getKey());
                if (runs == null) {
                    continue;
                }
                if (runs.size() != 1 || !e.getValue().equals(runs.get(0))) {
                    return false;
                }
                any = true;
            }
            return any;
        }
    }
}
