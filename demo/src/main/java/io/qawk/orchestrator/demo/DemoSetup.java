package io.qawk.orchestrator.demo;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import io.qawk.orchestrator.demo.DemoLanes.SetRef;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.InventoryPass;

/**
 * The demo's data, put in place once the service is up: distribution sets in the local hawkBit, the simulated
 * devices (which get their first sets installed on a fresh hawkBit: the 1.0 sets, one display already on 2.0), the
 * system type {@value DemoLanes#SYSTEM_TYPE} with its rules when there is no system type yet, an inventory sync, the
 * manifest {@value DemoLanes#MANIFEST}, and a rollout made in hawkBit outside Qawk ({@link DemoLanes#ROLLOUT}, not
 * started) that the guard lists as a threat. Everything on Qawk's side goes through its REST API, as an operator's
 * script would; the rollout through hawkBit's Management API, as a colleague would. Every step is idempotent, so a
 * second start on the same data runs it again harmlessly. {@link #close()} stops the simulated devices.
 */
final class DemoSetup implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DemoSetup.class);

    /** How long a simulated device takes to install a set. */
    static final Duration INSTALL_TIME = Duration.ofSeconds(2);
    /** Devices poll no faster than this (the demo hawkBit asks for 1 s), to keep the laptop quiet. */
    static final Duration MIN_POLL_INTERVAL = Duration.ofSeconds(3);
    static final Duration ATTRIBUTES_TIMEOUT = Duration.ofSeconds(60);
    static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(90);
    static final Duration ROLLOUT_TIMEOUT = Duration.ofSeconds(60);

    /** Where the devices and the fixtures find hawkBit. */
    record Hawkbit(String url, String user, String password, String tenant) {
        @Override
        public String toString() { // never the password
            return "hawkBit[" + url + ", user=" + user + "]";
        }
    }

    private final Hawkbit hawkbit;
    private final QawkApi qawk;
    private final String serviceUrl;
    private DeviceSimulator simulator;
    private boolean stopped;

    DemoSetup(Hawkbit hawkbit, QawkApi qawk, String serviceUrl) {
        this.hawkbit = hawkbit;
        this.qawk = qawk;
        this.serviceUrl = serviceUrl;
    }

    @Override
    public void close() {
        DeviceSimulator sim;
        synchronized (this) {
            stopped = true;
            sim = simulator;
            simulator = null;
        }
        if (sim != null) {
            sim.close();
        }
    }

    /** Runs the set-up; a failure is logged (the service runs on, the demo data may be incomplete). */
    void run() {
        setUpQuietly();
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

    /** The set-up itself; throws what {@link #run()} logs (the tests call it). */
    void setUp() {
        String url = hawkbit.url();
        String user = hawkbit.user();
        String password = hawkbit.password();
        HawkbitFixtures fixtures = new HawkbitFixtures(url, user, password);

        LOG.infof("Demo: [1/7] distribution sets in the local hawkBit (%s)", url);
        boolean freshHawkbit = fixtures.findDistributionSet(DemoLanes.APP_1.name(), DemoLanes.APP_1.version())
                .isEmpty();
        Map<SetRef, Long> setIds = new LinkedHashMap<>();
        for (SetRef s : DemoLanes.SETS) {
            setIds.put(s, fixtures.createDistributionSet(s.name(), s.version()));
        }
        LOG.infof("Demo:       %s", setIds.entrySet().stream()
                .map(e -> e.getKey().label() + " (id " + e.getValue() + ")").collect(Collectors.joining(", ")));

        List<DeviceSpec> devices = DemoLanes.devices(INSTALL_TIME);
        LOG.infof("Demo: [2/7] %d simulated devices: %d lanes in centres %s (lane computer, two terminals, a "
                + "display; %s has no display, %s's display fails %s, %s's display runs it already), %d kiosks "
                + "outside any system, and %s without a 'device' attribute", devices.size(), DemoLanes.LANES,
                DemoLanes.CENTRES, DemoLanes.INCOMPLETE_SYSTEM, DemoLanes.FAILING_SYSTEM, DemoLanes.DEVICE3_FW_2.label(),
                DemoLanes.DRIFTED_SYSTEM, DemoLanes.KIOSKS, DemoLanes.STRAY_DEVICE);
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

        LOG.info("Demo: [3/7] system type");
        Optional<Long> typeId = ensureSystemType();

        LOG.info("Demo: [4/7] inventory sync");
        sync();

        LOG.info("Demo: [5/7] manifest");
        if (typeId.isPresent()) {
            LOG.infof("Demo:       %s", ensureManifest(typeId.get(), setIds));
            String auth = System.getenv("QAWK_ADMIN_PASSWORD") != null ? "admin:$QAWK_ADMIN_PASSWORD" : "admin:admin";
            LOG.infof("Demo: try  curl -u %s %s/qawk/v1/systemtypes/%d/systems  or open %s/ui/", auth, serviceUrl,
                    typeId.get(), serviceUrl);
        } else {
            LOG.info("Demo:       skipped: there is no system type " + DemoLanes.SYSTEM_TYPE);
        }

        LOG.info("Demo: [6/7] a rollout in hawkBit, outside Qawk");
        long rollout = ensureRollout(fixtures, setIds);

        LOG.infof("Demo: [7/7] waiting for %d devices to install their first set and for the rollout to be ready, "
                + "then syncing again", installing.size());
        if (!installing.isEmpty()) {
            awaitInstalled(fixtures, installing);
        }
        awaitRolloutReady(fixtures, rollout);
        sync();
        typeId.ifPresent(this::logThreats);
    }

    /**
     * Creates {@link DemoLanes#ROLLOUT} through hawkBit's Management API, as a colleague would in hawkBit's UI, unless
     * a rollout of that name exists (in any state); never starts it. Its id.
     */
    private long ensureRollout(HawkbitFixtures fixtures, Map<SetRef, Long> setIds) {
        DemoLanes.RolloutRef r = DemoLanes.ROLLOUT;
        JsonNode found = fixtures.get("/rest/v1/rollouts?q="
                + URLEncoder.encode("name==" + HawkbitFixtures.quote(r.name()), StandardCharsets.UTF_8))
                .path("content");
        if (found.size() > 0) {
            JsonNode existing = found.get(0);
            LOG.infof("Demo:       rollout '%s' exists (id %d, %s)", r.name(), existing.path("id").asLong(),
                    existing.path("status").asText());
            return existing.path("id").asLong();
        }
        long id = fixtures.createRollout(r.name(), setIds.get(r.set()), r.targetFilterQuery(), r.groups());
        LOG.infof("Demo:       created rollout '%s' (id %d): %s to %s, not started", r.name(), id, r.set().label(),
                r.targetFilterQuery());
        return id;
    }

    /** hawkBit makes a new rollout's groups within seconds ({@code creating} → {@code ready}); waits, bounded. */
    private void awaitRolloutReady(HawkbitFixtures fixtures, long id) {
        long deadline = System.nanoTime() + ROLLOUT_TIMEOUT.toNanos();
        while (true) {
            String status = fixtures.rollout(id).path("status").asText();
            if (!"creating".equals(status)) {
                return;
            }
            if (System.nanoTime() > deadline || isStopped()) {
                LOG.warnf("Demo: rollout %d is still %s", id, status);
                return;
            }
            sleep(Duration.ofMillis(500));
        }
    }

    /** What the guard lists after the last sync: the rollout, the lanes it would move, the rule it breaks. */
    private void logThreats(long typeId) {
        JsonNode threats = qawk.get("/qawk/v1/threats?systemTypeId=" + typeId).path("content");
        for (JsonNode t : threats) {
            int breaking = 0;
            for (JsonNode s : t.path("systems")) {
                if (s.hasNonNull("breaks")) {
                    breaking++;
                }
            }
            LOG.infof("Demo:       threat: %s '%s' (%s, %s) would move %d system(s), %d of them against a rule",
                    t.path("source").asText(), t.path("name").asText(), t.path("status").asText(),
                    t.path("action").asText(), t.path("systems").size(), breaking);
        }
        String auth = System.getenv("QAWK_ADMIN_PASSWORD") != null ? "admin:$QAWK_ADMIN_PASSWORD" : "admin:admin";
        LOG.infof("Demo: try  curl -u %s %s/qawk/v1/threats  (the guard: %d threat(s), watched, none held)", auth,
                serviceUrl, threats.size());
    }

    private void sync() {
        JsonNode sync = qawk.post("/qawk/v1/inventory/sync", null);
        if (sync.has("requestedAt")) {
            // 202: the pass outlasted half the HTTP idle timeout and goes on; the inventory says when it ended
            Instant requestedAt = Instant.parse(sync.path("requestedAt").asText());
            LOG.info("Demo:       the sync goes on in the background; waiting for it");
            long deadline = System.nanoTime() + INSTALL_TIMEOUT.toNanos();
            InventoryPass.End end = null;
            while (end == null && System.nanoTime() < deadline && !isStopped()) {
                sleep(Duration.ofSeconds(1));
                sync = qawk.get("/qawk/v1/inventory");
                end = InventoryPass.endOf(requestedAt, text(sync, "lastStartedAt"), text(sync, "lastCompletedAt"),
                        text(sync, "lastFailedAt"));
            }
            if (end != InventoryPass.End.COMPLETED) {
                LOG.warnf("Demo:       the sync has not completed (%s): %s", end == null ? "still under way" : "failed",
                        sync.path("lastError").asText(""));
                return;
            }
        }
        LOG.infof("Demo:       %d devices (%d hawkBit requests, %d ms)", sync.path("devices").asInt(),
                sync.path("hawkbitRequests").asInt(), sync.path("durationMillis").asLong());
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.path(field).asText() : null;
    }

    /** Creates the demo manifest unless one of that name exists; says what it did. */
    private String ensureManifest(long typeId, Map<SetRef, Long> setIds) {
        for (JsonNode m : qawk.get("/qawk/v1/manifests")) {
            if (DemoLanes.MANIFEST.equals(m.path("name").asText())) {
                return DemoLanes.MANIFEST + " exists (id " + m.path("id").asLong() + ")";
            }
        }
        JsonNode created = qawk.post("/qawk/v1/manifests", DemoLanes.manifest(typeId, setIds));
        return "created " + DemoLanes.MANIFEST + " (id " + created.path("id").asLong() + "): "
                + DemoLanes.MANIFEST_PARTS.stream()
                        .map(p -> p.componentType() + " -> " + p.set().label() + " @" + p.order())
                        .collect(Collectors.joining(", "));
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
     * On a fresh hawkBit every component starts on 1.0, so a rollback has something to go back to, but for one
     * display already on 2.0 ({@link DemoLanes#firstSet}); returns the devices that were given a set.
     */
    private List<String> installFirstVersions(HawkbitFixtures fixtures, List<DeviceSpec> devices, Map<SetRef, Long> setIds) {
        Map<SetRef, List<String>> byInstall = new LinkedHashMap<>();
        for (DeviceSpec d : devices) {
            DemoLanes.firstSet(d).ifPresent(set ->
                    byInstall.computeIfAbsent(set, k -> new ArrayList<>()).add(d.controllerId()));
        }
        byInstall.forEach((set, ids) -> fixtures.assign(setIds.get(set), ids));
        LOG.infof("Demo:       installing the first sets: %s", byInstall.entrySet().stream()
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

    /** The id of {@value DemoLanes#SYSTEM_TYPE}: created when there is no system type at all, else looked up. */
    private Optional<Long> ensureSystemType() {
        List<JsonNode> existing = new ArrayList<>();
        qawk.get("/qawk/v1/systemtypes").forEach(existing::add);
        Optional<Long> demo = existing.stream().filter(t -> DemoLanes.SYSTEM_TYPE.equals(t.path("name").asText()))
                .map(t -> t.path("id").asLong()).findFirst();
        if (demo.isPresent()) {
            LOG.infof("Demo:       %s exists (id %d)", DemoLanes.SYSTEM_TYPE, demo.get());
            return demo;
        }
        if (!existing.isEmpty()) {
            LOG.infof("Demo:       left alone: %d system type(s) exist already, none named %s", existing.size(),
                    DemoLanes.SYSTEM_TYPE);
            return Optional.empty();
        }
        JsonNode created = qawk.post("/qawk/v1/systemtypes", DemoLanes.systemType());
        LOG.infof("Demo:       created %s (id %d)", DemoLanes.SYSTEM_TYPE, created.path("id").asLong());
        return Optional.of(created.path("id").asLong());
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
