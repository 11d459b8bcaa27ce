/** Gauges read from the store for Prometheus, and the histogram buckets the service's meters share. */
package io.qawk.orchestrator.metrics;
