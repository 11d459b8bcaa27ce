package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

import javax.sql.DataSource;

import org.hamcrest.Matchers;
import org.jboss.logging.Logger;

import io.qawk.orchestrator.deployment.engine.DeploymentEngine;
import io.qawk.orchestrator.inventory.InventorySync;
import io.qawk.orchestrator.testsupport.Api;
import io.restassured.path.json.JsonPath;

/**
 * The scale benchmark of issue 8, run against a {@link ScaleHawkbit} inside a {@code @QuarkusTest}: the service's
 * own beans are driven directly ({@link InventorySync#syncNow()}, {@link DeploymentEngine#passAll()}), the API over
 * HTTP. Every step has a deadline; when it passes, the double answers 503 so the step ends at once, and the row says
 * "not finished in X s". Produces one {@link BenchReport} table.
 */
final class ScaleBenchmark {

    private static final Logger LOG = Logger.getLogger(ScaleBenchmark.class);
    /** The "constant" of the request bounds (deployment-level reads such as a set lookup per set). */
    static final int CONSTANT = 5;
    static final String TYPE_PREFIX = "bench-";

    /** How big and how long. */
    record Sizes(String label, int targets, int systems, int runs, int maxParallel, int passes, int latencyRequests,
            int latencyClients, Duration stepTimeout, Duration budget, long deviceDelayMs, long hawkbitLatencyMs) {

        int devicesPerSystem() {
            return Math.max(1, targets / Math.max(1, systems));
        }

        /** From {@code -Dqawk.bench.*} with the sizes as defaults. */
        static Sizes fromSystemProperties() {
            return new Sizes("benchmark", Integer.getInteger("qawk.bench.targets", 100_000),
                    Integer.getInteger("qawk.bench.systems", 25_000), Integer.getInteger("qawk.bench.runs", 3),
                    Integer.getInteger("qawk.bench.max-parallel", 5000), Integer.getInteger("qawk.bench.passes", 8),
                    Integer.getInteger("qawk.bench.latency-requests", 2000),
                    Integer.getInteger("qawk.bench.latency-clients", 20),
                    Duration.ofSeconds(Integer.getInteger("qawk.bench.step-timeout", 90)),
                    Duration.ofSeconds(Integer.getInteger("qawk.bench.budget", 330)),
                    Long.getLong("qawk.bench.device-delay-ms", 0), Long.getLong("qawk.bench.hawkbit-latency-ms", 0));
        }

        /**
         * The small version of the normal test run: every step once, big enough that the engine needs several passes
         * (maxParallel below the systems) and the guard finds members; 2,000 targets / 500 systems took 81 s of a
         * loaded 2-core machine, mostly the first sync (its requests grow with the targets) and the latency step.
         */
        static Sizes smoke() {
            return new Sizes("smoke", 800, 200, 1, 50, 5, 40, 10, Duration.ofSeconds(90), Duration.ofSeconds(300),
                    0, 0);
        }
    }

    /** What the smoke test checks. */
    record Result(long expectedSystems, long systemsFound, boolean movedVisible, boolean firstOrderAssigned,
            int rows, Path table) {
    }

    /** One measured call. */
    record Measured<T>(T value, boolean finished, Throwable error, Duration wall, Duration threadCpu,
            Duration serviceCpu, Duration postgresCpu, ScaleHawkbit.Counts counts, Duration doubleTime, long peakHeap) {

        boolean ok() {
            return finished && error == null;
        }
    }

    /** One engine pass. */
    record Pass(int index, long startMs, long endMs, Measured<Object> m, int inFlight, int assigned, int sets,
            int underWay, int photographed) {

        /** In flight at the start, photographed (systems started) and assigned in the pass. */
        long due() {
            return (long) Math.max(0, inFlight) + Math.max(0, photographed) + assigned;
        }

        long bound() {
            return (due() + 499) / 500 + sets + CONSTANT;
        }
    }

    private final ScaleHawkbit hawkbit;
    private final InventorySync sync;
    private final DeploymentEngine engine;
    private final DataSource db;
    private final String app;
    private final Sizes sizes;
    private final BenchReport report;
    private final long startedNanos = System.nanoTime();
    private final ExecutorService driver = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-driver");
        t.setDaemon(true);
        return t;
    });
    private final List<Long> postgres;
    private final StringBuilder stepLog = new StringBuilder("Every measured step (double busy = summed time the hawkBit"
            + " double spent answering; peak heap = sum of the heap pools' peaks during the step):\n\n"
            + "| step | wall | service CPU | Postgres CPU | double busy | peak heap | requests | by operation |\n"
            + "|---|---|---|---|---|---|---|---|\n");

    private ScaleHawkbit.Population lanes;
    private final Map<String, Long> setIds = new LinkedHashMap<>();
    private int typeId;
    private int manifestId;
    private long doubleHeap;
    private long maxRss;
    private long maxHeapLive;
    private long maxPeakHeap;
    private long maxPostgresRss;

    ScaleBenchmark(ScaleHawkbit hawkbit, InventorySync sync, DeploymentEngine engine, DataSource db, URL app,
            Sizes sizes) {
        this.hawkbit = hawkbit;
        this.sync = sync;
        this.engine = engine;
        this.db = db;
        String base = app.toString();
        this.app = base.endsWith("/") ? base : base + "/";
        this.sizes = sizes;
        this.report = new BenchReport(sizes.label(), BenchReport.defaultDir());
        this.postgres = Machine.postgresPids(BenchReport.defaultDir().getParent());
    }

    // ------------------------------------------------------------------------------------------------ the run

    Result run() {
        try {
            return steps();
        } finally {
            driver.shutdownNow();
        }
    }

    private Result steps() {
        int n = sizes.targets();
        int s = sizes.systems();
        report.note("Sizes: " + String.format("%,d", n) + " targets requested, " + String.format("%,d", s)
                + " systems of " + sizes.devicesPerSystem() + " devices (" + String.join(", ", componentTypes())
                + "), runs " + sizes.runs() + ", maxParallel " + sizes.maxParallel() + ", " + sizes.passes()
                + " engine passes, device delay " + sizes.deviceDelayMs() + " ms, double latency "
                + sizes.hawkbitLatencyMs() + " ms/request, step deadline " + sizes.stepTimeout().toSeconds()
                + " s, budget " + sizes.budget().toSeconds() + " s.");
        setUp();

        // ---- first inventory sync
        List<Measured<Object>> first = new ArrayList<>();
        for (int run = 1; run <= sizes.runs(); run++) {
            if (run > 1) {
                if (!timeLeftFor(first.get(0).wall().multipliedBy(2), 0.6)) {
                    break;
                }
                clearInventory();
            }
            Measured<Object> m = measure("first sync " + run, sync::syncNow, stepDeadline());
            first.add(m);
            if (!m.ok()) {
                break;
            }
        }
        Measured<Object> firstMedian = median(first);
        long systemsFound = firstMedian.ok() ? systemsTotal() : -1;
        report.row("first inventory sync, " + fleetLabel(),
                "≤ 60 s",
                figure(first) + "; " + firstMedian.counts() + "; systems found " + systemsFound + " of " + s,
                firstMedian.ok() ? BenchReport.met(firstMedian.wall().toMillis() <= 60_000) : "**no**");
        recordRss();

        // ---- sync when nothing changed
        List<Measured<Object>> unchanged = new ArrayList<>();
        if (firstMedian.ok()) {
            for (int run = 1; run <= sizes.runs(); run++) {
                if (run > 1 && !timeLeftFor(unchanged.get(0).wall().multipliedBy(2), 0.5)) {
                    break;
                }
                Measured<Object> m = measure("unchanged sync " + run, sync::syncNow, stepDeadline());
                unchanged.add(m);
                if (!m.ok()) {
                    break;
                }
            }
        }
        Measured<Object> u = median(unchanged);
        if (u == null) {
            report.row("sync when nothing changed", "≤ 5 s", "not run: the first sync did not finish", "**no**");
            report.row("… its hawkBit requests", "≤ 1 per 500 targets + a constant", "not run", "**no**");
        } else {
            long allowed = (n + 499) / 500 + CONSTANT;
            report.row("sync when nothing changed, " + fleetLabel(), "≤ 5 s", figure(unchanged),
                    u.ok() ? BenchReport.met(u.wall().toMillis() <= 5000) : "**no**");
            report.row("… its hawkBit requests", "≤ 1 per 500 targets + a constant (here ≤ " + allowed + ")",
                    u.counts().total() + " = " + String.format(Locale.ROOT, "%.1f", u.counts().total() / (n / 500.0))
                            + " per 500 targets (" + u.counts().perOperation() + ")",
                    u.ok() ? BenchReport.met(u.counts().total() <= allowed) : "**no**");
        }

        // ---- a device that changed its system key
        boolean movedVisible = false;
        if (firstMedian.ok()) {
            movedVisible = changedKey();
        } else {
            report.row("a device that changed its system key", "visible within one sync",
                    "not run: the first sync did not finish", "**no**");
        }

        // ---- API latency
        if (firstMedian.ok()) {
            latency();
        } else {
            report.row("GET …/systems?limit=100, 20 concurrent clients", "p50 ≤ 50 ms, p99 ≤ 200 ms",
                    "not run: no inventory", "**no**");
        }

        // ---- engine
        boolean firstOrderAssigned = false;
        if (firstMedian.ok()) {
            firstOrderAssigned = deploymentPasses();
        } else {
            report.row("engine pass", "≤ 1 s of the service's own time per pass", "not run: no inventory", "**no**");
        }

        // ---- memory
        recordRss();
        long serviceRss = maxRss - doubleHeap;
        // the goal is judged on the service in its own process (ServiceProcessBenchmarkIT); this JVM also holds the
        // double, JUnit, Quarkus' test machinery and the benchmark's own clients
        report.row("memory of this test JVM at " + fleetLabel() + " (the goal is judged by the service-process row)",
                "(≤ 512 MB for the service)",
                "test JVM RSS " + Machine.mb(maxRss) + " (max after GC over the run) − the hawkBit double's population ≈ "
                        + Machine.mb(doubleHeap) + " → service ≈ " + Machine.mb(serviceRss) + "; live heap after GC "
                        + Machine.mb(maxHeapLive) + " (double included), peak heap in a step ≤ "
                        + Machine.mb(maxPeakHeap) + ", JVM max heap " + Machine.mb(Runtime.getRuntime().maxMemory())
                        + "; embedded Postgres (own processes) " + Machine.mb(maxPostgresRss),
                "see below");
        report.note(stepLog.toString());
        Map<String, String> putBack = new TreeMap<>(BenchProfile.productionValues());
        putBack.keySet().removeAll(BenchProfile.BENCHMARK_SETTINGS.keySet());
        report.note("Settings put back from their %test values to production ones: " + putBack + "; set by the"
                + " benchmark: " + BenchProfile.BENCHMARK_SETTINGS + ".");
        report.note("Wall time of the whole benchmark: " + seconds(Duration.ofNanos(System.nanoTime() - startedNanos))
                + ".");
        Path table = report.write(sizes.label().equals("smoke") ? "results-smoke.md" : "results.md");
        LOG.infof("benchmark table written to %s", table);
        return new Result(s, systemsFound, movedVisible, firstOrderAssigned, report.rows().size(), table);
    }

    // ------------------------------------------------------------------------------------------------ set-up

    private List<String> componentTypes() {
        return componentTypes(sizes.devicesPerSystem());
    }

    /** Component types of a system of {@code d} devices: lane, terminals, display. */
    static List<String> componentTypes(int d) {
        if (d == 1) {
            return List.of("lane");
        }
        if (d == 2) {
            return List.of("lane", "terminal");
        }
        if (d == 3) {
            return List.of("lane", "terminal", "display");
        }
        List<String> types = new ArrayList<>(List.of("lane", "terminal", "terminal", "display"));
        while (types.size() < d) {
            types.add("terminal");
        }
        return types;
    }

    static int orderOf(String componentType) {
        switch (componentType) {
            case "display":
                return 1;
            case "terminal":
                return 2;
            default:
                return 3;
        }
    }

    static String setNameOf(String componentType) {
        switch (componentType) {
            case "display":
                return "disp";
            case "terminal":
                return "term";
            default:
                return "app";
        }
    }

    private void setUp() {
        long heapBefore = Machine.heapUsedAfterGc();
        long t0 = System.nanoTime();
        int centres = Math.max(1, sizes.systems() / 100);
        lanes = hawkbit.populate(sizes.systems(), sizes.devicesPerSystem(), componentTypes(), centres, TYPE_PREFIX);
        setIds.putAll(setsWithVersion1Installed(hawkbit, lanes));
        hawkbit.deviceRule(ScaleHawkbit.DeviceRule.succeedAfter(Duration.ofMillis(sizes.deviceDelayMs())));
        hawkbit.latency(Duration.ofMillis(sizes.hawkbitLatencyMs()));
        Duration populate = Duration.ofNanos(System.nanoTime() - t0);
        doubleHeap = Math.max(0, Machine.heapUsedAfterGc() - heapBefore);
        report.note("The hawkBit double was filled with " + String.format("%,d", lanes.deviceCount()) + " targets in "
                + seconds(populate) + " (≈ " + Machine.mb(doubleHeap) + " of heap); every device runs version 1 of"
                + " its set (preinstalled) and finishes an assignment after " + sizes.deviceDelayMs() + " ms.");

        typeId = Api.admin().body(systemTypeJson("bench-lane-" + System.nanoTime(), componentTypes()))
                .post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        manifestId = Api.admin().body(manifestJson("bench-" + System.nanoTime(), typeId, componentTypes(), setIds))
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
    }

    /** Sets app, term and disp in versions 1 and 2 ({@code "app:1"} → id); every device runs version 1 of its set. */
    static Map<String, Long> setsWithVersion1Installed(ScaleHawkbit hawkbit, ScaleHawkbit.Population lanes) {
        Map<String, Long> ids = new HashMap<>();
        for (String set : List.of("app", "term", "disp")) {
            for (String version : List.of("1", "2")) {
                ids.put(set + ":" + version, hawkbit.addDistributionSet(TYPE_PREFIX + set, version));
            }
        }
        Map<String, List<String>> byType = new HashMap<>();
        lanes.typeOfDevice().forEach((id, type) -> byType.computeIfAbsent(type, k -> new ArrayList<>()).add(id));
        byType.forEach((type, devices) -> hawkbit.preinstall(ids.get(setNameOf(type) + ":1"), devices));
        return ids;
    }

    /** The lane system type: key {@code attribute.device}, centre {@code attribute.centerid}, one component per type. */
    static String systemTypeJson(String name, List<String> componentTypes) {
        Set<String> types = new HashSet<>(componentTypes);
        StringBuilder components = new StringBuilder();
        for (String type : List.of("lane", "terminal", "display")) {
            if (types.contains(type)) {
                components.append(components.length() == 0 ? "" : ",").append("{\"componentType\": \"").append(type)
                        .append("\", \"match\": \"attribute.device_type==").append(TYPE_PREFIX).append(type)
                        .append("\"}");
            }
        }
        return "{\"name\": \"" + name + "\", \"systemKey\": \"attribute.device\", \"groupKey\": \"attribute.centerid\","
                + " \"components\": [" + components + "]}";
    }

    /** Version 2 of every component's set: display first, terminals second, the lane last. */
    static String manifestJson(String name, long typeId, List<String> componentTypes, Map<String, Long> setIds) {
        return manifestJson(name, typeId, componentTypes, setIds, "2");
    }

    /** This version of every component's set: display first, terminals second, the lane last. */
    static String manifestJson(String name, long typeId, List<String> componentTypes, Map<String, Long> setIds,
                               String version) {
        Set<String> types = new HashSet<>(componentTypes);
        StringBuilder manifest = new StringBuilder();
        for (String type : List.of("display", "terminal", "lane")) {
            if (types.contains(type)) {
                manifest.append(manifest.length() == 0 ? "" : ",").append("{\"componentType\": \"").append(type)
                        .append("\", \"distributionSetId\": ").append(setIds.get(setNameOf(type) + ":" + version))
                        .append(", \"order\": ").append(orderOf(type)).append("}");
            }
        }
        return "{\"name\": \"" + name + "\", \"systemTypeId\": " + typeId + ", \"components\": [" + manifest + "]}";
    }

    private String fleetLabel() {
        return String.format("%,d targets / %,d systems", lanes.deviceCount(), sizes.systems());
    }

    private void clearInventory() {
        // system_member first: its foreign key to device has no index of its own, so a cascading delete would scan
        // system_member once per device
        try (Connection c = db.getConnection(); PreparedStatement members = c.prepareStatement("delete from system_member");
             PreparedStatement devices = c.prepareStatement("delete from device")) {
            members.executeUpdate();
            devices.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot clear the inventory for a repeated first sync", e);
        }
    }

    private long systemsTotal() {
        return ((Number) Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems?limit=1").then().statusCode(200)
                .extract().path("total")).longValue();
    }

    // ------------------------------------------------------------------------------------------------ changed key

    private boolean changedKey() {
        String from = lanes.systems().get(Math.min(1, lanes.systems().size() - 1));
        String to = lanes.systems().get(Math.min(2, lanes.systems().size() - 1));
        String device = lanes.devicesBySystem().get(from).get(lanes.devicesBySystem().get(from).size() > 1 ? 1 : 0);
        List<Measured<Object>> runs = new ArrayList<>();
        int visible = 0;
        for (int run = 1; run <= sizes.runs(); run++) {
            if (run > 1 && !timeLeftFor(runs.get(0).wall().multipliedBy(2), 0.45)) {
                break;
            }
            String target = run % 2 == 1 ? to : from;
            String source = run % 2 == 1 ? from : to;
            hawkbit.setAttribute(device, "device", target);
            Measured<Object> m = measure("changed-key sync " + run, sync::syncNow, stepDeadline());
            runs.add(m);
            if (!m.ok()) {
                break;
            }
            if (devicesOf(target).contains(device) && !devicesOf(source).contains(device)) {
                visible++;
            }
        }
        Measured<Object> med = median(runs);
        boolean all = med != null && med.ok() && visible == runs.size();
        report.row("a device that changed its system key", "visible within one sync",
                (all ? "yes" : "no") + " (" + visible + " of " + runs.size() + " moves seen after one sync); that sync: "
                        + (med == null ? "n/a" : seconds(med.wall()) + ", " + med.counts()),
                BenchReport.met(all));
        return all;
    }

    private List<String> devicesOf(String system) {
        JsonPath detail = Api.viewer().get("/qawk/v1/systemtypes/" + typeId + "/systems/" + system).then()
                .statusCode(Matchers.anyOf(Matchers.is(200), Matchers.is(404)))
                .extract().jsonPath();
        List<String> ids = detail.getList("content.controllerId");
        return ids == null ? List.of() : ids;
    }

    // ------------------------------------------------------------------------------------------------ latency

    private void latency() {
        URI uri = URI.create(app + "qawk/v1/systemtypes/" + typeId + "/systems?limit=100");
        Latency.Result r = Latency.measure(uri, "viewer", Api.VIEWER_PASSWORD, sizes.latencyClients(),
                sizes.latencyRequests(), stepDeadline());
        report.row("GET …/systems?limit=100 at " + String.format("%,d", sizes.systems()) + " systems, "
                + sizes.latencyClients() + " concurrent clients", "p50 ≤ 50 ms, p99 ≤ 200 ms", r.measured(),
                BenchReport.met(r.met()));
    }

    // ------------------------------------------------------------------------------------------------ engine

    private boolean deploymentPasses() {
        long t0 = System.nanoTime();
        int deployment = Api.admin().body("{\"name\": \"bench-" + System.nanoTime() + "\", \"manifestId\": "
                        + manifestId + ", \"maxParallel\": " + sizes.maxParallel() + ", \"maxFailed\": 1000000}")
                .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().path("id");
        Api.admin().post("/qawk/v1/systemdeployments/" + deployment + "/start").then().statusCode(200);
        Duration start = Duration.ofNanos(System.nanoTime() - t0);
        report.note("Creating and starting the deployment (" + String.format("%,d", sizes.systems())
                + " systems in scope, maxParallel " + sizes.maxParallel() + ") took " + seconds(start) + ".");

        long firstAction = hawkbit.lastActionId();
        List<Pass> passes = new ArrayList<>();
        long engineEnd = System.nanoTime() + Math.min(remaining().toNanos(),
                sizes.stepTimeout().multipliedBy(Math.max(2, sizes.passes() / 2)).toNanos());
        for (int p = 1; p <= sizes.passes(); p++) {
            Duration left = Duration.ofNanos(engineEnd - System.nanoTime());
            if (left.isNegative() || left.toMillis() < 1000) {
                report.note("Engine passes stopped after " + passes.size() + " of " + sizes.passes()
                        + ": the engine step's time was used up.");
                break;
            }
            InFlight before = inFlight(deployment);
            int photosBefore = photographed(deployment);
            long lastAction = hawkbit.lastActionId();
            long startMs = System.currentTimeMillis();
            Measured<Object> m = measure("engine pass " + p, engine::passAll, min(left, stepDeadline()));
            long endMs = System.currentTimeMillis();
            List<ScaleHawkbit.ActionView> created = hawkbit.actionsAfter(lastAction);
            Set<Long> sets = new HashSet<>(before.sets);
            created.forEach(a -> sets.add(a.setId()));
            passes.add(new Pass(p, startMs, endMs, m, before.devices, created.size(), sets.size(),
                    underWay(deployment), photographed(deployment) - photosBefore));
            if (!m.ok()) {
                break;
            }
        }
        engineRows(passes);
        return orderRows(passes, hawkbit.actionsAfter(firstAction));
    }

    private void engineRows(List<Pass> passes) {
        String what = "engine pass, " + String.format("%,d", sizes.systems()) + " systems × 3 orders, maxParallel "
                + sizes.maxParallel();
        if (passes.isEmpty()) {
            report.row(what, "≤ 1 s of the service's own time per pass", "no pass ran", "**no**");
            return;
        }
        StringBuilder table = new StringBuilder("Engine passes (service CPU = this JVM's CPU time minus the hawkBit"
                + " double's threads; pass thread = CPU of the thread running passAll(); Postgres = its processes;"
                + " due = devices in flight at the start + devices photographed + devices assigned in the pass; bound ="
                + " ⌈due/500⌉ + sets + " + CONSTANT + "):\n\n| pass | wall | service CPU | pass thread CPU | Postgres CPU |"
                + " under way after | in flight | photographed | assigned | sets | requests | bound |"
                + " requests by operation |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Pass p : passes) {
            Measured<Object> m = p.m();
            table.append("| ").append(p.index()).append(m.finished() ? "" : " (cut)").append(" | ")
                    .append(seconds(m.wall())).append(" | ").append(seconds(m.serviceCpu())).append(" | ")
                    .append(seconds(m.threadCpu())).append(" | ")
                    .append(m.postgresCpu().isNegative() ? "n/a" : seconds(m.postgresCpu())).append(" | ")
                    .append(p.underWay()).append(" | ").append(p.inFlight()).append(" | ").append(p.photographed())
                    .append(" | ").append(p.assigned())
                    .append(" | ").append(p.sets()).append(" | ").append(m.counts().total()).append(" | ")
                    .append(p.bound()).append(" | ").append(m.counts().perOperation()).append(" |\n");
        }
        report.note(table.toString());
        List<Pass> finished = passes.stream().filter(p -> p.m().ok()).toList();
        int maxUnderWay = passes.stream().mapToInt(Pass::underWay).max().orElse(0);
        if (finished.isEmpty()) {
            Pass p = passes.get(0);
            report.row(what, "≤ 1 s of the service's own time per pass", "not finished in "
                    + seconds(p.m().wall()) + " (" + p.m().counts().total() + " hawkBit requests before the cut: "
                    + p.m().counts().perOperation() + ")", "**no**");
            report.row("hawkBit requests per pass", "≤ (devices due ÷ 500) + (distinct sets) + a constant",
                    "no pass finished", "**no**");
            return;
        }
        long cpuMedian = medianOf(finished, p -> p.m().serviceCpu().toNanos());
        long cpuMax = finished.stream().mapToLong(p -> p.m().serviceCpu().toNanos()).max().orElse(0);
        long wallMedian = medianOf(finished, p -> p.m().wall().toNanos());
        long wallMax = finished.stream().mapToLong(p -> p.m().wall().toNanos()).max().orElse(0);
        long pgMedian = medianOf(finished, p -> p.m().postgresCpu().toNanos());
        boolean cut = finished.size() < passes.size();
        report.row(what + " (up to " + String.format("%,d", maxUnderWay) + " systems under way)",
                "≤ 1 s of the service's own time per pass",
                "service CPU median " + seconds(Duration.ofNanos(cpuMedian)) + ", max " + seconds(Duration.ofNanos(cpuMax))
                        + "; wall median " + seconds(Duration.ofNanos(wallMedian)) + ", max "
                        + seconds(Duration.ofNanos(wallMax)) + "; Postgres CPU median "
                        + (pgMedian < 0 ? "n/a" : seconds(Duration.ofNanos(pgMedian))) + " (" + finished.size()
                        + " passes" + (cut ? "; 1 more not finished in " + seconds(passes.get(passes.size() - 1).m().wall())
                        : "") + ")",
                BenchReport.met(!cut && cpuMax <= 1_000_000_000L));
        long over = finished.stream().filter(p -> p.m().counts().total() > p.bound()).count();
        Pass worst = finished.stream().max((a, b) -> Double.compare(
                a.m().counts().total() / (double) a.bound(), b.m().counts().total() / (double) b.bound())).get();
        report.row("hawkBit requests per pass", "≤ (devices due ÷ 500) + (distinct sets) + a constant (" + CONSTANT + ")",
                "median " + medianOf(finished, p -> p.m().counts().total()) + " vs bound median "
                        + medianOf(finished, Pass::bound) + "; " + over + " of " + finished.size()
                        + " passes over the bound; worst: pass " + worst.index() + " with " + worst.m().counts().total()
                        + " vs " + worst.bound() + " (" + worst.m().counts().perOperation() + ")",
                BenchReport.met(over == 0 && !cut));
    }

    /** Order k's last device finished → order k+1 assigned, counted in passes, per system of the deployment. */
    private boolean orderRows(List<Pass> passes, List<ScaleHawkbit.ActionView> actions) {
        Map<String, String> systemOf = new HashMap<>();
        lanes.devicesBySystem().forEach((system, ids) -> ids.forEach(id -> systemOf.put(id, system)));
        Map<String, Map<Integer, List<ScaleHawkbit.ActionView>>> bySystem = new HashMap<>();
        boolean firstOrderAssigned = false;
        for (ScaleHawkbit.ActionView a : actions) {
            String type = lanes.typeOfDevice().get(a.controllerId());
            if (type == null) {
                continue;
            }
            int order = orderOf(type);
            firstOrderAssigned |= order == 1;
            bySystem.computeIfAbsent(systemOf.get(a.controllerId()), k -> new HashMap<>())
                    .computeIfAbsent(order, k -> new ArrayList<>()).add(a);
        }
        List<Integer> gaps = new ArrayList<>();
        for (Map<Integer, List<ScaleHawkbit.ActionView>> orders : bySystem.values()) {
            for (int k = 1; k <= 2; k++) {
                List<ScaleHawkbit.ActionView> now = orders.get(k);
                List<ScaleHawkbit.ActionView> next = orders.get(k + 1);
                if (now == null || next == null) {
                    continue;
                }
                long lastFinish = now.stream().mapToLong(ScaleHawkbit.ActionView::finishedAt).max().orElse(0);
                long firstAssign = next.stream().mapToLong(ScaleHawkbit.ActionView::createdAt).min().orElse(0);
                if (lastFinish == 0 || now.stream().anyMatch(a -> a.finishedAt() == 0)) {
                    continue;
                }
                gaps.add(passAt(passes, firstAssign) - passAt(passes, lastFinish));
            }
        }
        String what = "order k's last device finished → order k+1 assigned";
        if (gaps.isEmpty()) {
            report.row(what, "≤ one pass interval", "no system reached a second order within " + passes.size()
                    + " passes" + (firstOrderAssigned ? " (first orders were assigned)" : "; no first order assigned"),
                    "**no**");
            return firstOrderAssigned;
        }
        Collections.sort(gaps);
        int max = gaps.get(gaps.size() - 1);
        report.row(what, "≤ one pass interval", "max " + max + " pass(es), median " + gaps.get(gaps.size() / 2)
                + " (" + gaps.size() + " transitions of " + bySystem.size() + " systems)", BenchReport.met(max <= 1));
        return firstOrderAssigned;
    }

    /** Index of the pass running at, or last started before, {@code millis}. */
    private static int passAt(List<Pass> passes, long millis) {
        int at = 0;
        for (Pass p : passes) {
            if (p.startMs() <= millis) {
                at = p.index();
            }
        }
        return at;
    }

    private record InFlight(int devices, Set<Long> sets) {
    }

    private InFlight inFlight(long deployment) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select case when d.state = 'ROLLBACK_ASSIGNED' then d.from_set_id else d.to_set_id end, count(*)"
                        + " from run_device d join system_run r on r.id = d.run_id where r.deployment_id = ?"
                        + " and d.state in ('ASSIGNED', 'ROLLBACK_ASSIGNED') group by 1")) {
            ps.setLong(1, deployment);
            int devices = 0;
            Set<Long> sets = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sets.add(rs.getLong(1));
                    devices += rs.getInt(2);
                }
            }
            return new InFlight(devices, sets);
        } catch (SQLException e) {
            LOG.warnf("cannot count devices in flight: %s", e.getMessage());
            return new InFlight(-1, Set.of());
        }
    }

    /** Devices photographed so far (rows of run_device). */
    private int photographed(long deployment) {
        return count("select count(*) from run_device d join system_run r on r.id = d.run_id where r.deployment_id = ?",
                deployment);
    }

    private int underWay(long deployment) {
        return count("select count(*) from system_run where deployment_id = ? and state in ('RUNNING', 'ROLLING_BACK')",
                deployment);
    }

    /** A count about one deployment; -1 when the database cannot say. */
    private int count(String sql, long deployment) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, deployment);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    // ------------------------------------------------------------------------------------------------ measuring

    /**
     * Runs {@code work} on the driver thread, timed, with CPU and hawkBit requests counted. At the deadline the
     * double answers 503 until the work has given up (the service treats it as hawkBit being down).
     */
    private <T> Measured<T> measure(String what, Callable<T> work, Duration deadline) {
        hawkbit.reset();
        Machine.resetPeakHeap();
        ScaleHawkbit.Counts c0 = hawkbit.snapshot();
        long svc0 = Machine.serviceCpuNanos();
        Machine.Allocation alloc = Machine.startCounting();
        long pg0 = Machine.cpuNanosOf(postgres);
        AtomicLong threadCpu = new AtomicLong();
        long t0 = System.nanoTime();
        Future<T> f = driver.submit(() -> {
            long c = Machine.currentThreadCpuNanos();
            try {
                return work.call();
            } finally {
                threadCpu.set(Machine.currentThreadCpuNanos() - c);
            }
        });
        T value = null;
        Throwable error = null;
        boolean finished = true;
        long t1;
        try {
            value = f.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            t1 = System.nanoTime();
        } catch (TimeoutException e) {
            t1 = System.nanoTime();
            finished = false;
            ScaleHawkbit.Counts atCut = hawkbit.snapshot();
            LOG.warnf("%s not finished in %d s: making hawkBit unavailable to end it", what, deadline.toSeconds());
            hawkbit.unavailable(true);
            try {
                f.get(180, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // expected: hawkBit is "down"
            }
            hawkbit.unavailable(false);
            sleep(Duration.ofMillis(2500)); // the circuit breaker lets a trial call through again
            Measured<T> cut = new Measured<>(null, false, null, Duration.ofNanos(t1 - t0),
                    Duration.ofNanos(threadCpu.get()), Duration.ofNanos(Machine.serviceCpuNanos() - svc0),
                    pgDelta(pg0), atCut.minus(c0), hawkbit.handlingTime(), Machine.peakHeap());
            LOG.infof("%s (not finished, cut): service allocated %s, %s", what, Machine.mb(alloc.bytes()),
                    cut.counts());
            logStep(what + " (not finished, cut)", cut);
            return cut;
        } catch (ExecutionException e) {
            t1 = System.nanoTime();
            error = e.getCause();
            LOG.warnf(error, "%s failed", what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Measured<T> m = new Measured<>(value, finished, error, Duration.ofNanos(t1 - t0),
                Duration.ofNanos(threadCpu.get()), Duration.ofNanos(Machine.serviceCpuNanos() - svc0), pgDelta(pg0),
                hawkbit.snapshot().minus(c0), hawkbit.handlingTime(), Machine.peakHeap());
        maxPeakHeap = Math.max(maxPeakHeap, m.peakHeap());
        LOG.infof("%s: %s, service CPU %s, double busy %s, peak heap %s, service allocated %s, %s", what,
                seconds(m.wall()), seconds(m.serviceCpu()), seconds(m.doubleTime()), Machine.mb(m.peakHeap()),
                Machine.mb(alloc.bytes()), m.counts());
        logStep(what, m);
        return m;
    }

    private void logStep(String what, Measured<?> m) {
        stepLog.append("| ").append(what).append(" | ").append(seconds(m.wall())).append(" | ")
                .append(seconds(m.serviceCpu())).append(" | ")
                .append(m.postgresCpu().isNegative() ? "n/a" : seconds(m.postgresCpu())).append(" | ")
                .append(seconds(m.doubleTime())).append(" | ").append(Machine.mb(m.peakHeap())).append(" | ")
                .append(m.counts().total()).append(" | ").append(m.counts().perOperation()).append(" |\n");
    }

    private Duration pgDelta(long pg0) {
        long pg1 = Machine.cpuNanosOf(postgres);
        return pg0 < 0 || pg1 < 0 ? Duration.ofNanos(-1) : Duration.ofNanos(pg1 - pg0);
    }

    private void recordRss() {
        maxHeapLive = Math.max(maxHeapLive, Machine.heapUsedAfterGc());
        maxRss = Math.max(maxRss, Machine.rssBytes());
        maxPostgresRss = Math.max(maxPostgresRss, Machine.rssOf(Machine.postgresPids(
                BenchReport.defaultDir().getParent())));
    }

    private Duration stepDeadline() {
        return min(sizes.stepTimeout(), remaining().isNegative() ? Duration.ofSeconds(10) : remaining());
    }

    private Duration remaining() {
        return sizes.budget().minus(Duration.ofNanos(System.nanoTime() - startedNanos));
    }

    /** Whether {@code needed} fits in what is left while keeping {@code reserve} of the budget for later steps. */
    private boolean timeLeftFor(Duration needed, double reserve) {
        return remaining().minus(needed).toMillis() > sizes.budget().toMillis() * reserve;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** The median by wall time of the finished measurements, else the first (unfinished) one; null when none. */
    private static Measured<Object> median(List<Measured<Object>> all) {
        if (all.isEmpty()) {
            return null;
        }
        List<Measured<Object>> ok = new ArrayList<>(all.stream().filter(Measured::ok).toList());
        if (ok.isEmpty()) {
            return all.get(all.size() - 1);
        }
        ok.sort((a, b) -> a.wall().compareTo(b.wall()));
        return ok.get(ok.size() / 2);
    }

    private static String figure(List<Measured<Object>> all) {
        Measured<Object> med = median(all);
        if (med == null) {
            return "not run";
        }
        if (!med.ok()) {
            return med.error() != null ? "failed: " + med.error() : "not finished in " + seconds(med.wall());
        }
        long ok = all.stream().filter(Measured::ok).count();
        return seconds(med.wall()) + (ok > 1 ? " (median of " + ok + ": " + String.join(", ",
                all.stream().filter(Measured::ok).map(m -> seconds(m.wall())).toList()) + ")" : "")
                + ", service CPU " + seconds(med.serviceCpu())
                + (med.postgresCpu().isNegative() ? "" : ", Postgres CPU " + seconds(med.postgresCpu()));
    }

    private static <T> long medianOf(List<T> items, ToLongFunction<T> f) {
        long[] v = items.stream().mapToLong(f).sorted().toArray();
        return v.length == 0 ? 0 : v[v.length / 2];
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.2f s", d.toNanos() / 1e9);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
