package io.qawk.orchestrator.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.qawk.orchestrator.demo.DemoFleet.SetRef;
import io.qawk.orchestrator.hawkbit.HawkbitConfig;
import io.qawk.orchestrator.inventory.InventorySync;
import io.qawk.orchestrator.systemtype.SystemType;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Demo mode, second half: once the service has started against the local hawkBit that
 * {@link DemoHawkbitConfigSourceFactory} launched, fills it with the {@link DemoFleet} on a background thread (startup
 * is not held up): distribution sets, simulated devices (which get the 1.0 sets installed on a fresh hawkBit), the
 * system type {@value DemoFleet#SYSTEM_TYPE} when there is no system type yet, an inventory sync, and — when this build
 * has manifests — the manifest {@value DemoFleet#MANIFEST}.
 * <p>
 * Does nothing unless {@code qawk.demo.active} is true, which only the factory sets. Every step is idempotent, so a
 * dev-mode reload (same hawkBit, same database) runs it again harmlessly. The simulator stops with the application.
 */
@ApplicationScoped
public class DemoSetup {

    private static final Logger LOG = Logger.getLogger(DemoSetup.class);

    /** How long a simulated device takes to install a set. */
    static final Duration INSTALL_TIME = Duration.ofSeconds(2);
    /** Devices poll no faster than this (the demo hawkBit asks for 1 s), to keep the laptop quiet. */
    static final Duration MIN_POLL_INTERVAL = Duration.ofSeconds(3);
    static final Duration ATTRIBUTES_TIMEOUT = Duration.ofSeconds(60);
    static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(90);

    @ConfigProperty(name = DemoHawkbitConfigSourceFactory.ACTIVE, defaultValue = "false")
    boolean active;

    @ConfigProperty(name = "quarkus.http.port", defaultValue = "8080")
    int httpPort;

    @Inject
    HawkbitConfig hawkbit;

    @Inject
    SystemTypeService systemTypes;

    @Inject
    InventorySync inventory;

    private Thread worker;
    private DeviceSimulator simulator;
    private boolean stopped;

    void onStart(@Observes StartupEvent ev) {
        if (!active) {
            return;
        }
        Thread t = new Thread(this::setUpQuietly, "qawk-demo-setup");
        t.setDaemon(true);
        synchronized (this) {
            worker = t;
        }
        t.start();
    }

    void onStop(@Observes ShutdownEvent ev) {
        Thread t;
        DeviceSimulator sim;
        synchronized (this) {
            stopped = true;
            t = worker;
            sim = simulator;
            simulator = null;
        }
        if (t != null && t.isAlive()) {
            t.interrupt();
            try {
                t.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (sim != null) {
            sim.close();
        }
    }

    private void setUpQuietly() {
        long t0 = System.nanoTime();
        try {
            setUp();
            LOG.infof("Demo: ready after %d s", (System.nanoTime() - t0) / 1_000_000_000L);
        } catch (RuntimeException e) {
            if (isStopped()) {
                LOG.debugf("Demo: setup interrupted by shutdown (%s)", e.toString());
            } else {
                LOG.error("Demo: setup failed; the service runs on, but the demo data may be incomplete", e);
            }
        }
    }

    private void setUp() {
        String url = hawkbit.url().orElseThrow(() -> new IllegalStateException("no hawkBit URL in demo mode"));
        String user = hawkbit.user().orElseThrow();
        String password = hawkbit.password().orElseThrow();
        HawkbitFixtures fixtures = new HawkbitFixtures(url, user, password);

        LOG.infof("Demo: [1/6] distribution sets in the local hawkBit (%s)", url);
        boolean freshHawkbit = fixtures.findDistributionSet(DemoFleet.APP_1.name(), DemoFleet.APP_1.version())
                .isEmpty();
        Map<SetRef, Long> setIds = new LinkedHashMap<>();
        for (SetRef s : DemoFleet.SETS) {
            setIds.put(s, fixtures.createDistributionSet(s.name(), s.version()));
        }
        LOG.infof("Demo:       %s", setIds.entrySet().stream()
                .map(e -> e.getKey().label() + " (id " + e.getValue() + ")").collect(Collectors.joining(", ")));

        List<DeviceSpec> devices = DemoFleet.devices(INSTALL_TIME);
        LOG.infof("Demo: [2/6] %d simulated devices: %d lanes in centres %s (lane computer, two terminals, a "
                + "display; %s has no display, %s's display fails %s), %d kiosks outside any system, and %s "
                + "without a 'device' attribute", devices.size(), DemoFleet.LANES, DemoFleet.CENTRES,
                DemoFleet.INCOMPLETE_SYSTEM, DemoFleet.FAILING_SYSTEM, DemoFleet.DEVICE3_FW_2.label(), DemoFleet.KIOSKS,
                DemoFleet.STRAY_DEVICE);
        DeviceSimulator sim = new DeviceSimulator(url, user, password, hawkbit.tenant());
        sim.setMinPollInterval(MIN_POLL_INTERVAL);
        synchronized (this) {
            if (stopped) {
                sim.close();
                return;
            }
            simulator = sim;
        }
        sim.addDevices(devices);
        awaitAttributes(fixtures, devices);
        List<String> installing = freshHawkbit ? installFirstVersions(fixtures, devices, setIds) : List.of();

        LOG.info("Demo: [3/6] system type");
        Optional<Long> typeId = ensureSystemType();

        LOG.info("Demo: [4/6] inventory sync");
        sync();

        LOG.info("Demo: [5/6] manifest");
        if (typeId.isPresent()) {
            LOG.infof("Demo:       %s", DemoManifests.ensure(typeId.get(), setIds));
            String auth = System.getenv("QAWK_ADMIN_PASSWORD") != null ? "admin:$QAWK_ADMIN_PASSWORD" : "admin:admin";
            LOG.infof("Demo: try  curl -u %s http://localhost:%d/qawk/v1/systemtypes/%d/systems", auth, httpPort,
                    typeId.get());
        } else {
            LOG.info("Demo:       skipped: there is no system type " + DemoFleet.SYSTEM_TYPE);
        }

        if (!installing.isEmpty()) {
            LOG.infof("Demo: [6/6] waiting for %d devices to install their 1.0 set, then syncing again",
                    installing.size());
            awaitInstalled(fixtures, installing);
            sync();
        }
    }

    private void sync() {
        InventorySync.SyncResult sync = inventory.syncNow();
        LOG.infof("Demo:       %d devices, %d memberships (%d hawkBit requests, %d ms)", sync.devices(),
                sync.memberships(), sync.hawkbitRequests(), sync.durationMillis());
    }

    /** Devices send their attributes on their first poll; the system type's queries need them in hawkBit. */
    private void awaitAttributes(HawkbitFixtures fixtures, List<DeviceSpec> devices) {
        long deadline = System.nanoTime() + ATTRIBUTES_TIMEOUT.toNanos();
        List<String> missing = devices.stream().map(DeviceSpec::controllerId).collect(Collectors.toList());
        while (true) {
            missing.removeIf(id -> !fixtures.attributes(id).isEmpty());
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline || isStopped()) {
                LOG.warnf("Demo: %d device(s) have not reported their attributes yet: %s", missing.size(), missing);
                return;
            }
            sleep(Duration.ofMillis(500));
        }
    }

    /**
     * On a fresh hawkBit every component starts on 1.0, so a rollback has something to go back to; returns the
     * devices that were given a set.
     */
    private List<String> installFirstVersions(HawkbitFixtures fixtures, List<DeviceSpec> devices, Map<SetRef, Long> setIds) {
        Map<String, SetRef> firstByType = Map.of(
                "device1", DemoFleet.APP_1, "device2", DemoFleet.DEVICE2_FW_1, "device3", DemoFleet.DEVICE3_FW_1);
        Map<SetRef, List<String>> byInstall = new LinkedHashMap<>();
        for (DeviceSpec d : devices) {
            SetRef set = firstByType.get(d.attributes().get("device_type"));
            if (set != null) {
                byInstall.computeIfAbsent(set, k -> new ArrayList<>()).add(d.controllerId());
            }
        }
        byInstall.forEach((set, ids) -> fixtures.assign(setIds.get(set), ids));
        LOG.infof("Demo:       installing the 1.0 sets: %s", byInstall.entrySet().stream()
                .map(e -> e.getKey().label() + " on " + e.getValue().size() + " devices")
                .collect(Collectors.joining(", ")));
        return byInstall.values().stream().flatMap(List::stream).toList();
    }

    /** Waits (bounded) until the devices report their set installed; true when all did. */
    private boolean awaitInstalled(HawkbitFixtures fixtures, List<String> ids) {
        long deadline = System.nanoTime() + INSTALL_TIMEOUT.toNanos();
        List<String> pending = new ArrayList<>(ids);
        while (true) {
            pending.removeIf(id -> "in_sync".equals(fixtures.updateStatus(id)));
            if (pending.isEmpty()) {
                return true;
            }
            if (System.nanoTime() > deadline || isStopped()) {
                LOG.warnf("Demo: %d device(s) have not finished installing yet: %s", pending.size(), pending);
                return false;
            }
            sleep(Duration.ofSeconds(1));
        }
    }

    /** The id of {@value DemoFleet#SYSTEM_TYPE}: created when there is no system type at all, else looked up. */
    private Optional<Long> ensureSystemType() {
        List<SystemType> existing = QuarkusTransaction.requiringNew().call(() -> systemTypes.list());
        Optional<Long> demo = existing.stream().filter(t -> DemoFleet.SYSTEM_TYPE.equals(t.name)).map(t -> t.id)
                .findFirst();
        if (demo.isPresent()) {
            LOG.infof("Demo:       %s exists (id %d)", DemoFleet.SYSTEM_TYPE, demo.get());
            return demo;
        }
        if (!existing.isEmpty()) {
            LOG.infof("Demo:       left alone: %d system type(s) exist already, none named %s", existing.size(),
                    DemoFleet.SYSTEM_TYPE);
            return Optional.empty();
        }
        SystemType created = systemTypes.create(DemoFleet.systemType());
        LOG.infof("Demo:       created %s (id %d)", created.name, created.id);
        return Optional.of(created.id);
    }

    private synchronized boolean isStopped() {
        return stopped;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
