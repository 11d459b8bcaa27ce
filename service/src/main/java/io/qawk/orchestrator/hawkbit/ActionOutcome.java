package io.qawk.orchestrator.hawkbit;

/**
 * Where an action stands, the same on every hawkBit version (see {@link HawkbitGateway#actionOutcome}).
 * A download-only action counts as SUCCEEDED once downloaded.
 */
public enum ActionOutcome {
    /** Still open: the device has not reported a final result. */
    RUNNING,
    /** Closed with success (or downloaded, for download-only). */
    SUCCEEDED,
    /** Closed with an error reported by the device, or closed without a recognisable success. */
    FAILED,
    /** Canceled (confirmed by the device or forced). */
    CANCELED
}
