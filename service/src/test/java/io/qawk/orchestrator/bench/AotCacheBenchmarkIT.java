package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.reliability.QawkApi;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged service with and without an ahead-of-time cache (JDK 25, JEP 483 and 515), side by side in one run
 * (issue 58). First a training run writes the cache ({@code -XX:AOTCacheOutput}, the JVM writes it when the service
 * stops on SIGTERM), then runs alternate without and with {@code -XX:AOTCache}, each on a database of its own against
 * one {@link ScaleHawkbit} fleet: the start until live, the process's CPU until then, the first inventory sync, a
 * deployment of every system and, after a sync, a second one back to version 1 (the fleet ends where it began), and
 * the most the process was resident. The ratio of the first deployment to the second is the figure the cache is for.
 *
 * <p>Needs the test JVM on JDK 25 (the service runs on the same {@code java.home}) and the {@code aot-jar} packaging
 * ({@code -Paot}): classes loaded by the fast-jar's own class loader are not cached. Skipped on an older JDK.
 * {@code -Dqawk.bench.aot.targets} (20000), {@code .systems} (5000), {@code .pairs} (2),
 * {@code .deploy-seconds} (120), {@code .output} (a path: the trained cache is copied there, e.g.
 * {@code target/quarkus-app/app.aot} for the image; with {@code .pairs=0} the run only trains),
 * {@code -Dqawk.bench.service-jvm} as for {@link ServiceProcessBenchmarkIT}. When the packaging holds Quarkus' own
 * cache ({@code -Daot}: trained by a start only), it is a third kind.
 */
@Tag("benchmark")
class AotCacheBenchmarkIT {

    private static final Logger LOG = Logger.getLogger(AotCacheBenchmarkIT.class);

    /** What one start of the service did. */
    record Run(String kind, Duration start, long startCpu, long rssLive, Duration sync, Deployment first,
               Deployment second, long peakRss) {
    }

    /** One deployment of every system: until it ended, passes, the whole process's CPU and the JIT's part of it. */
    record Deployment(Duration wall, double passes, long cpu, long jit, String state) {
        double cpuPerPass() {
            return passes == 0 ? 0 : cpu / 1e9 / passes;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s, %.0f passes, CPU %.1f s (JIT %.1f s), %.2f s per pass, %s",
                    ScaleBenchmark.seconds(wall), passes, cpu / 1e9, jit / 1e9, cpuPerPass(), state);
        }
    }

    @Test
    void theServiceWithAndWithoutItsAotCache() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "an AOT cache needs JDK 25; this JVM is " + Runtime.version());
        int targets = Integer.getInteger("qawk.bench.aot.targets", 20_000);
        int systems = Integer.getInteger("qawk.bench.aot.systems", 5_000);
        int pairs = Integer.getInteger("qawk.bench.aot.pairs", 2);
        int deploySeconds = Integer.getInteger("qawk.bench.aot.deploy-seconds", 120);
        int perSystem = Math.max(1, targets / Math.max(1, systems));
        List<String> jvm = Arrays.asList(System.getProperty("qawk.bench.service-jvm",
                "-Xmx224m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=64m -Xss512k").trim().split("\\s+"));
        Path cache = ReliabilityPostgres.outputDir().resolve("bench-app.aot");
        Files.deleteIfExists(cache);
        BenchReport report = new BenchReport("aot", BenchReport.defaultDir());
        String label = String.format("%,d targets / %,d systems", systems * perSystem, systems);

        try (ScaleHawkbit hawkbit = ScaleHawkbit.start(Integer.getInteger("qawk.bench.hawkbit-threads", 8));
             ReliabilityPostgres pg = ReliabilityPostgres.start("bench-aot")) {
            List<String> componentTypes = ScaleBenchmark.componentTypes(perSystem);
            ScaleHawkbit.Population lanes = hawkbit.populate(systems, perSystem, componentTypes,
                    Math.max(1, systems / 100), ScaleBenchmark.TYPE_PREFIX);
            Map<String, Long> setIds = ScaleBenchmark.setsWithVersion1Installed(hawkbit, lanes);
            hawkbit.deviceRule(ScaleHawkbit.DeviceRule.succeedAfter(Duration.ZERO));
            Workload work = new Workload(hawkbit, pg, componentTypes, setIds, systems, deploySeconds);

            long t0 = System.nanoTime();
            Run training = work.run("training", with(jvm, "-XX:AOTCacheOutput=" + cache), true);
            Duration trained = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(cache).as("the AOT cache the training run wrote").exists();
            report.note(String.format(Locale.ROOT, "Training run (`-XX:AOTCacheOutput`): %s in all, its stop writing a"
                    + " cache of %s; first deployment %s, second %s.", ScaleBenchmark.seconds(trained),
                    Machine.mb(Files.size(cache)), training.first(), training.second()));

            Path output = Path.of(System.getProperty("qawk.bench.aot.output", ""));
            if (!output.toString().isEmpty()) { // -Daot packaging: the image takes the cache this run trained
                Files.copy(cache, output.toAbsolutePath(), StandardCopyOption.REPLACE_EXISTING);
                report.note("The trained cache was copied to " + output.toAbsolutePath() + ".");
            }

            // the kinds compared, in turn, each first in one pair of every few: the machine's drift spreads evenly
            Map<String, List<String>> kinds = new LinkedHashMap<>();
            kinds.put("without a cache", jvm);
            kinds.put("with the cache a deployment trained", with(jvm, "-XX:AOTCache=" + cache));
            Path startTrained = ServiceProcess.appJar().resolveSibling("app.aot");
            if (Files.isRegularFile(startTrained) && !startTrained.equals(output.toAbsolutePath())) {
                kinds.put("with the cache Quarkus trained by a start (-Daot)", with(jvm, "-XX:AOTCache=" + startTrained));
            }
            Map<String, List<Run>> runs = new LinkedHashMap<>();
            List<String> order = new ArrayList<>(kinds.keySet());
            for (int i = 0; i < pairs; i++) {
                for (String kind : order) {
                    Run r = work.run(kind, kinds.get(kind), false);
                    runs.computeIfAbsent(kind, k -> new ArrayList<>()).add(r);
                    LOG.infof("AOT benchmark, %s: %s", kind, r);
                }
                Collections.rotate(order, 1);
            }
            for (List<Run> of : runs.values()) {
                String kind = of.get(0).kind();
                report.row("service process " + kind + " (JDK " + Runtime.version().feature() + "): start until live",
                        "—", each(of, r -> ScaleBenchmark.seconds(r.start()) + String.format(Locale.ROOT,
                                " (CPU %.1f s, resident %s)", r.startCpu() / 1e9, Machine.mb(r.rssLive()))), "—");
                report.row("service process " + kind + ": first deployment against the second, " + label,
                        "≤ 1.05× (issue 58)", each(of, r -> String.format(Locale.ROOT,
                                "**%.2f×** (first %s; second %s)", ratio(r), r.first(), r.second())),
                        BenchReport.met(of.stream().allMatch(r -> ratio(r) <= 1.05)));
                report.row("service process " + kind + ": resident memory (VmHWM); first sync, " + label, "≤ 512 MB",
                        each(of, r -> Machine.mb(r.peakRss()) + "; sync " + ScaleBenchmark.seconds(r.sync())),
                        BenchReport.met(of.stream().allMatch(r -> r.peakRss() <= 512L * 1024 * 1024)));
            }
            report.note("JVM options `" + String.join(" ", jvm) + "`, JDK " + Runtime.version() + "; load average at"
                    + " the end " + Files.readString(Path.of("/proc/loadavg")).trim() + ". Runs alternated, "
                    + pairs + " of each kind; the order rotated each time.");
        } finally {
            LOG.infof("benchmark table written to %s", report.write("results.md"));
        }
    }

    private static double ratio(Run r) {
        return r.second().wall().toNanos() == 0 ? 0 : (double) r.first().wall().toNanos() / r.second().wall().toNanos();
    }

    private static String each(List<Run> runs, Function<Run, String> f) {
        return String.join("; ", runs.stream().map(f).toList());
    }

    private static List<String> with(List<String> jvm, String option) {
        List<String> out = new ArrayList<>(jvm);
        out.add(option);
        return out;
    }

    /** The same steps for every start, each on a database of its own (the fleet ends where it began). */
    private record Workload(ScaleHawkbit hawkbit, ReliabilityPostgres pg, List<String> componentTypes,
                            Map<String, Long> setIds, int systems, int deploySeconds) {

        private static int databases;

        Run run(String kind, List<String> jvm, boolean stopGently) throws Exception {
            String db = "aot" + (++databases);
            try (Connection c = pg.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            }
            String url = pg.jdbcUrl().replace("/postgres", "/" + db);
            try (ServiceProcess service = ServiceProcess.start("bench-aot-" + db, url,
                    new ServiceProcess.Hawkbit(hawkbit.baseUrl(), "bench", "bench-password", "DEFAULT"), jvm,
                    Map.of("QAWK_INVENTORY_SYNC_INTERVAL", "1h", "QAWK_INVENTORY_INITIAL_DELAY", "1h",
                            "QAWK_ENGINE_INTERVAL", "10s", "QAWK_ENGINE_INITIAL_DELAY", "1s", // production's passes
                            "QAWK_HTTP_IDLE_TIMEOUT", "300s", "MALLOC_ARENA_MAX", "2"))) {
                long pid = service.pid();
                Duration start = service.lastStartTime();
                long startCpu = Machine.cpuNanosOf(List.of(pid));
                long rssLive = Machine.rssOf(List.of(pid));
                QawkApi api = service.api();
                int typeId = api.post("/qawk/v1/systemtypes", ScaleBenchmark.systemTypeJson("bench-lane",
                        componentTypes), 201).getInt("id");
                long s0 = System.nanoTime();
                api.sync();
                Duration sync = Duration.ofNanos(System.nanoTime() - s0);
                assertThat(api.systems(typeId)).as("systems found by " + kind).isEqualTo(systems);
                int to2 = api.post("/qawk/v1/manifests", ScaleBenchmark.manifestJson("bench", typeId, componentTypes,
                        setIds), 201).getInt("id");
                Deployment first = deploy(pid, api, service, to2);
                api.sync();
                int to1 = api.post("/qawk/v1/manifests", ScaleBenchmark.manifestJson("bench-back", typeId,
                        componentTypes, setIds, "1"), 201).getInt("id");
                Deployment second = deploy(pid, api, service, to1);
                long peak = Machine.peakRssOf(pid);
                if (stopGently) { // SIGTERM: the JVM writes the AOT cache as it exits
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
                    ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(5, TimeUnit.MINUTES).join());
                }
                return new Run(kind, start, startCpu, rssLive, sync, first, second, peak);
            }
        }

        private Deployment deploy(long pid, QawkApi api, ServiceProcess service, int manifestId) throws Exception {
            hawkbit.reset();
            Map<String, Double> before = Scrape.metrics(service.baseUrl(), "qawk_engine_pass_seconds");
            long cpu0 = Machine.cpuNanosOf(List.of(pid));
            Map<String, Machine.ThreadCpu> threads0 = Machine.cpuByThreadOf(pid);
            long t0 = System.nanoTime();
            int id = api.post("/qawk/v1/systemdeployments", "{\"name\": \"bench-" + manifestId + "\", \"manifestId\": "
                    + manifestId + ", \"maxParallel\": 5000, \"maxFailed\": 1000000}", 201).getInt("id");
            api.post("/qawk/v1/systemdeployments/" + id + "/start", null, 200);
            long until = t0 + Duration.ofSeconds(deploySeconds).toNanos();
            String state = "RUNNING";
            while (System.nanoTime() < until && !state.matches("FINISHED|FAILED|ABORTED")) {
                Thread.sleep(250); // a poll interval, as a screen would ask; the deadline is `until`
                state = api.deployment(id).getString("state");
            }
            Duration wall = Duration.ofNanos(System.nanoTime() - t0);
            long cpu = Machine.cpuNanosOf(List.of(pid)) - cpu0;
            Map<String, Long> work = Machine.cpuByWork(threads0, Machine.cpuByThreadOf(pid), cpu);
            double passes = Scrape.sum(Scrape.delta(before, Scrape.metrics(service.baseUrl(),
                    "qawk_engine_pass_seconds")), "qawk_engine_pass_seconds_count");
            assertThat(state).as("deployment %d within %d s", id, deploySeconds).isEqualTo("FINISHED");
            return new Deployment(wall, passes, cpu, work.getOrDefault("JIT", 0L), state);
        }
    }
}
