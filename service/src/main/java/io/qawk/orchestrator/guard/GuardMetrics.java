package io.qawk.orchestrator.guard;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.qawk.orchestrator.common.OwnedMeters;
import io.qawk.orchestrator.common.StoredGauges;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code qawk_threats{source,system_type}}: the threats of the last guard pass, per source ({@code rollout},
 * {@code autoAssignment}, {@code assignment}) and system type, read from Postgres so every replica reports the same;
 * refreshed after each pass and on the metrics' schedule. Every type has a gauge per source (0 where none), so
 * that the alert's query finds the series before the first threat; a removed type's read 0.
 */
@Startup
@ApplicationScoped
public class GuardMetrics implements StoredGauges {

    private static final Logger LOG = Logger.getLogger(GuardMetrics.class);

    @Inject
    MeterRegistry registry;

    @Inject
    ThreatStore store;

    private final Map<List<String>, AtomicLong> threats = new ConcurrentHashMap<>();
    private OwnedMeters gauges;

    @PostConstruct
    void register() {
        gauges = new OwnedMeters(registry);
    }

    @PreDestroy
    void unregister() {
        gauges.removeAll();
    }

    /** Re-reads the counts; a failure leaves the previous values. */
    @Override
    public void refresh() {
        try {
            Map<List<String>, Long> now = store.counts();
            now.forEach((key, n) -> threats.computeIfAbsent(key, k -> {
                AtomicLong v = new AtomicLong();
                gauges.register(Gauge.builder("qawk.threats", v, AtomicLong::get)
                        .description("hawkBit work outside Qawk that would move system members, by source and type")
                        .tag("source", k.get(0)).tag("system_type", k.get(1))::register);
                return v;
            }).set(n));
            threats.forEach((key, v) -> {
                if (!now.containsKey(key)) {
                    v.set(0);
                }
            });
        } catch (RuntimeException e) {
            LOG.debugf("Threat gauges not refreshed: %s", e.getMessage());
        }
    }
}
