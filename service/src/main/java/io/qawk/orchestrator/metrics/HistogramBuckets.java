package io.qawk.orchestrator.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * A few fixed buckets for the hawkBit request timer ({@code qawk_hawkbit_requests_seconds_bucket}), so dashboards
 * can show latency quantiles with a small, bounded number of series (operation × outcome × 10 buckets).
 */
public class HistogramBuckets {

    static final double[] HAWKBIT_SECONDS = {0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

    @Produces
    @Singleton
    MeterFilter hawkbitRequestBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!"qawk.hawkbit.requests".equals(id.getName())) {
                    return config;
                }
                double[] nanos = new double[HAWKBIT_SECONDS.length];
                for (int i = 0; i < nanos.length; i++) {
                    nanos[i] = Duration.ofMillis(Math.round(HAWKBIT_SECONDS[i] * 1000)).toNanos();
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
            }
        };
    }
}
