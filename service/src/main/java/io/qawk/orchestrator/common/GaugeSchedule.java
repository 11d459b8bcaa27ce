package io.qawk.orchestrator.common;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The one schedule of the gauges read from Postgres ({@code qawk.metrics.refresh-interval}): every
 * {@link StoredGauges} bean is refreshed on it, so their numbers move together.
 */
@ApplicationScoped
public class GaugeSchedule {

    @Inject
    @Any
    Instance<StoredGauges> gauges;

    @Scheduled(every = "${qawk.metrics.refresh-interval:15s}", delayed = "${qawk.metrics.refresh-interval:15s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        gauges.forEach(StoredGauges::refresh);
    }
}
