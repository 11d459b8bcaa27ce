package io.qawk.orchestrator.hawkbit;

/** A distribution set, reduced to what Qawk needs. {@code complete} = all mandatory modules present (assignable). */
public record DistributionSetRef(long id, String name, String version, boolean complete) {

    /** {@code name:version}, the form used in manifests and messages. */
    public String label() {
        return name + ":" + version;
    }
}
