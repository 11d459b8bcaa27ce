package io.qawk.orchestrator.channel;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.qawk.orchestrator.common.OwnedMeters;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Channel gauges: {@code qawk_fleet_releases_halted} (alert on it being above 0: a halted release waits for a
 * person) and, per channel, the current release's systems and standalone devices by state.
 */
@ApplicationScoped
public class ChannelMetrics {

    @Inject
    MeterRegistry registry;

    @Inject
    ReleaseStatus status;

    private final AtomicLong halted = new AtomicLong();
    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();
    private volatile boolean registered;
    private OwnedMeters gauges;

    @PostConstruct
    void init() {
        gauges = new OwnedMeters(registry);
    }

    @PreDestroy
    void unregister() {
        gauges.removeAll();
    }

    /** Re-reads every current release; call inside a transaction. */
    void refresh() {
        if (!registered) {
            gauges.register(Gauge.builder("qawk.fleet.releases.halted", halted, AtomicLong::get)
                    .description("Current channel releases that are halted and wait for a person to resume them")
                    ::register);
            registered = true;
        }
        long h = 0;
        values.values().forEach(v -> v.set(0));
        for (ChannelRelease r : ChannelRelease.<ChannelRelease>list("state", ChannelRelease.State.CURRENT)) {
            Channel f = Channel.findById(r.channelId);
            if (r.halted) {
                h++;
            }
            ChannelView.SystemCounts s = status.systems(r);
            if (s != null) {
                set("systems", f.name, "updated", s.updated());
                set("systems", f.name, "rolled_back", s.rolledBack());
                set("systems", f.name, "under_way", s.underWay());
                set("systems", f.name, "pending", s.pending());
            }
            ChannelView.DeviceCounts d = ReleaseStatus.devices(r);
            if (d != null) {
                set("devices", f.name, "on_set", d.onSet());
                set("devices", f.name, "failed", d.failed());
                set("devices", f.name, "in_flight", d.inFlight());
                set("devices", f.name, "pending", d.pending());
            }
        }
        halted.set(h);
    }

    private void set(String what, String channel, String state, long value) {
        values.computeIfAbsent(what + "|" + channel + "|" + state, k -> {
            AtomicLong v = new AtomicLong();
            gauges.register(Gauge.builder("qawk.fleet.release." + what, v, AtomicLong::get)
                    .description("The current release's " + what + " of a channel, by state")
                    .tag("fleet", channel).tag("state", state)::register);
            return v;
        }).set(value);
    }
}
