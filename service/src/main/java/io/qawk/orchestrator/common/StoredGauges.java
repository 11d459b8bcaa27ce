package io.qawk.orchestrator.common;

/**
 * Gauges read from Postgres, re-read on the metrics' schedule ({@link GaugeSchedule}); a failed refresh leaves the
 * previous values.
 */
public interface StoredGauges {

    /** Re-reads the gauges' values from the store. */
    void refresh();
}
