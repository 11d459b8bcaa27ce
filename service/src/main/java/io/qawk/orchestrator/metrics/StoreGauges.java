package io.qawk.orchestrator.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.qawk.orchestrator.common.OwnedMeters;
import io.qawk.orchestrator.common.SqlEnums;
import io.qawk.orchestrator.common.StoredGauges;
import io.qawk.orchestrator.common.MetricLabel;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.inventory.InventorySynced;
import io.qawk.orchestrator.window.CentreWindows;
import io.qawk.orchestrator.window.Windows;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Gauges read from Postgres, so every replica reports the same numbers: refreshed on a short schedule
 * ({@code qawk.metrics.refresh-interval}, a handful of cheap aggregate queries) and right after an inventory sync.
 *
 * <ul>
 *   <li>{@code qawk_deployments{phase}} – system deployments by phase</li>
 *   <li>{@code qawk_runs{state}} – system runs of the deployments that have not ended, by state ({@code verifying}:
 *       soaking after their last order)</li>
 *   <li>{@code qawk_soak_left_seconds} – the longest time left of the soaks under way (0 when none soaks)</li>
 *   <li>{@code qawk_inventory_devices}, {@code qawk_inventory_systems} – devices in the inventory and the systems
 *       they form (over every system type)</li>
 *   <li>{@code qawk_inventory_last_sync_age_seconds} – seconds since the last successful inventory sync (by any
 *       replica); since this replica's start when no sync has ever completed</li>
 *   <li>{@code qawk_runs_waiting_for_window} – pending systems of running deployments whose centre's maintenance
 *       window is closed now</li>
 *   <li>{@code qawk_systems_broken{system_type}} – systems found at the last sync on a mix of sets their type's
 *       compatibility rules forbid (a type's gauge appears with it, and reads 0 once the type is gone)</li>
 *   <li>{@code qawk_runs_diverged} – runs of deployments that have not ended whose records hawkBit's actions
 *       contradict (a restore, a standby promoted): each is held until a person adopts what hawkBit shows</li>
 * </ul>
 */
@Startup
@ApplicationScoped
public class StoreGauges implements StoredGauges {

    private static final Logger LOG = Logger.getLogger(StoreGauges.class);

    @Inject
    MeterRegistry registry;

    @Inject
    DataSource dataSource;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    private final Map<DeploymentPhase, AtomicLong> deployments = new EnumMap<>(DeploymentPhase.class);
    private final Map<RunState, AtomicLong> runs = new EnumMap<>(RunState.class);
    private final AtomicLong devices = new AtomicLong();
    private final AtomicLong systems = new AtomicLong();
    private final AtomicLong waitingForWindow = new AtomicLong();
    private final AtomicLong diverged = new AtomicLong();
    private final Map<String, AtomicLong> brokenByType = new ConcurrentHashMap<>();
    private volatile Instant lastSoakEnd;
    private volatile Instant lastSync;
    private volatile Instant started;
    private OwnedMeters gauges;

    @PostConstruct
    void register() {
        started = clock.instant();
        gauges = new OwnedMeters(registry);
        for (DeploymentPhase p : DeploymentPhase.values()) {
            AtomicLong v = new AtomicLong();
            deployments.put(p, v);
            gauges.register(Gauge.builder("qawk.deployments", v, AtomicLong::get)
                    .description("System deployments by phase").tag("phase", MetricLabel.of(p))::register);
        }
        for (RunState s : RunState.values()) {
            AtomicLong v = new AtomicLong();
            runs.put(s, v);
            gauges.register(Gauge.builder("qawk.runs", v, AtomicLong::get)
                    .description("System runs of the deployments that have not ended, by state")
                    .tag("state", MetricLabel.of(s))::register);
        }
        gauges.register(Gauge.builder("qawk.soak.left", this, StoreGauges::soakLeftSeconds)
                .description("The longest time left of the system soaks under way (0 when none soaks)")
                .baseUnit("seconds")::register);
        gauges.register(Gauge.builder("qawk.inventory.devices", devices, AtomicLong::get)
                .description("Devices in the inventory (hawkBit targets some system type matches)")::register);
        gauges.register(Gauge.builder("qawk.inventory.systems", systems, AtomicLong::get)
                .description("Systems the inventory's devices form, over every system type")::register);
        gauges.register(Gauge.builder("qawk.runs.waiting.for.window", waitingForWindow, AtomicLong::get)
                .description("Pending systems of running deployments whose centre's maintenance window is closed now")
                ::register);
        gauges.register(Gauge.builder("qawk.runs.diverged", diverged, AtomicLong::get)
                .description("Runs whose records hawkBit's actions contradict, held until a person adopts or rolls back")
                ::register);
        gauges.register(Gauge.builder("qawk.inventory.last.sync.age", this, StoreGauges::lastSyncAgeSeconds)
                .description("Seconds since the last successful inventory sync (since start when none has completed)")
                .baseUnit("seconds")::register);
        refresh();
    }

    @PreDestroy
    void unregister() {
        gauges.removeAll();
    }

    /** An inventory sync has just been stored: re-read its numbers. */
    void inventorySynced(@Observes InventorySynced synced) {
        try (Connection c = dataSource.getConnection()) {
            readInventory(c);
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Inventory gauges not refreshed: %s", e.getMessage());
        }
    }

    /** Re-reads every gauge; a failure leaves the previous values. */
    @Override
    public void refresh() {
        try (Connection c = dataSource.getConnection()) {
            Map<DeploymentPhase, Long> phases = new EnumMap<>(DeploymentPhase.class);
            try (PreparedStatement ps = c.prepareStatement("select phase, count(*) from system_deployment group by phase");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    phases.put(DeploymentPhase.valueOf(rs.getString(1)), rs.getLong(2));
                }
            }
            Map<RunState, Long> states = new EnumMap<>(RunState.class);
            try (PreparedStatement ps = c.prepareStatement("select r.state, count(*) from system_run r"
                    + " join system_deployment d on d.id = r.deployment_id"
                    + " where d.phase not in " + SqlEnums.list(DeploymentPhase.FINISHED, DeploymentPhase.FAILED,
                            DeploymentPhase.ABORTED) + " group by r.state");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    states.put(RunState.valueOf(rs.getString(1)), rs.getLong(2));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("select max(soak_ends_at) from system_run where state = "
                    + SqlEnums.literal(RunState.VERIFYING));
                 ResultSet rs = ps.executeQuery()) {
                Timestamp end = rs.next() ? rs.getTimestamp(1) : null;
                lastSoakEnd = end == null ? null : end.toInstant();
            }
            deployments.forEach((p, v) -> v.set(phases.getOrDefault(p, 0L)));
            runs.forEach((s, v) -> v.set(states.getOrDefault(s, 0L)));
            waitingForWindow.set(waitingForWindow(c));
            try (PreparedStatement ps = c.prepareStatement("select count(*) from run_divergence dv"
                    + " join system_deployment d on d.id = dv.deployment_id"
                    + " where d.phase not in " + SqlEnums.list(DeploymentPhase.FINISHED, DeploymentPhase.FAILED,
                            DeploymentPhase.ABORTED));
                 ResultSet rs = ps.executeQuery()) {
                diverged.set(rs.next() ? rs.getLong(1) : 0);
            }
            readInventory(c);
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Metric gauges not refreshed: %s", e.getMessage());
        }
    }

    /** Pending systems per centre of the running deployments with windows, counted where the window is closed now. */
    private long waitingForWindow(Connection c) throws SQLException {
        long waiting = 0;
        Instant now = clock.instant();
        try (PreparedStatement ps = c.prepareStatement("select d.id, d.windows::text, r.group_name, count(*)"
                + " from system_run r join system_deployment d on d.id = r.deployment_id"
                + " where d.phase = " + SqlEnums.literal(DeploymentPhase.RUNNING) + " and d.windows is not null and r.state = "
                + SqlEnums.literal(RunState.PENDING)
                + " group by d.id, d.windows::text, r.group_name order by d.id");
             ResultSet rs = ps.executeQuery()) {
            long deployment = -1;
            CentreWindows windows = CentreWindows.NONE;
            while (rs.next()) {
                if (rs.getLong(1) != deployment) {
                    deployment = rs.getLong(1);
                    windows = windowsOf(rs.getString(2), now);
                }
                if (windows.closed(rs.getString(3))) {
                    waiting += rs.getLong(4);
                }
            }
        }
        return waiting;
    }

    private CentreWindows windowsOf(String stored, Instant now) {
        try {
            return CentreWindows.of(json.readValue(stored, Windows.class), now);
        } catch (IOException e) {
            LOG.debugf("Windows not readable: %s", e.getMessage());
            return CentreWindows.NONE;
        }
    }

    private void readInventory(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select (select count(*) from device),"
                + " (select count(*) from (select distinct system_type_id, system_name from system_member"
                + "   where system_name is not null and problem is null) s),"
                + " (select last_completed_at from inventory_sync_state where id = 1)");
             ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                devices.set(rs.getLong(1));
                systems.set(rs.getLong(2));
                Timestamp t = rs.getTimestamp(3);
                lastSync = t == null ? null : t.toInstant();
            }
        }
        readBroken(c);
    }

    /** Systems breaking a compatibility rule, per system type (partial index on {@code broken}). */
    private void readBroken(Connection c) throws SQLException {
        Map<String, Long> now = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select t.name, (select count(*) from discovered_system s"
                + " where s.system_type_id = t.id and s.broken is not null) from system_type t");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                now.put(rs.getString(1), rs.getLong(2));
            }
        }
        now.forEach((type, n) -> brokenByType.computeIfAbsent(type, name -> {
            AtomicLong v = new AtomicLong();
            gauges.register(Gauge.builder("qawk.systems.broken", v, AtomicLong::get)
                    .description("Systems on a mix of sets their type's compatibility rules forbid")
                    .tag("system_type", name)::register);
            return v;
        }).set(n));
        brokenByType.forEach((type, v) -> {
            if (!now.containsKey(type)) {
                v.set(0);
            }
        });
    }

    double soakLeftSeconds() {
        Instant end = lastSoakEnd;
        return end == null ? 0 : Math.max(0, Duration.between(clock.instant(), end).toMillis() / 1000.0);
    }

    double lastSyncAgeSeconds() {
        Instant since = lastSync != null ? lastSync : started;
        return since == null ? 0 : Math.max(0, Duration.between(since, clock.instant()).toMillis() / 1000.0);
    }
}
