package io.qawk.orchestrator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.inventory.InventorySync;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The side-by-side row of issue 8: N single-device systems updated through the orchestrator (its engine at its normal
 * pace, {@code qawk.engine.interval=1s}) against the same N targets assigned directly in one bulk call, on the real
 * hawkBit (0.3.0M7) with the same simulated devices (polling every second, installing in 1 s). Goal: wall-time ratio
 * ≤ 1.2. Rounds alternate (direct, orchestrated, …) and each moves every device to a new version of the set.
 * Sized by {@code -Dqawk.bench.direct-devices} (default 1000) and {@code -Dqawk.bench.direct-rounds} (default 2).
 */
@Tag("benchmark")
@QuarkusTest
@TestProfile(DirectVsOrchestratorBenchmarkTest.RealHawkbit.class)
class DirectVsOrchestratorBenchmarkTest {

    private static final Logger LOG = Logger.getLogger(DirectVsOrchestratorBenchmarkTest.class);

    /** The real hawkBit, the engine at 1 s, syncs driven by the test, production values otherwise. */
    public static class RealHawkbit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>(BenchProfile.productionValues());
            for (String prefix : List.of("", "%test.")) {
                c.put(prefix + "qawk.engine.interval", "1s");
                c.put(prefix + "qawk.engine.initial-delay", "1s");
                c.put(prefix + "qawk.inventory.sync-interval", "1h");
                c.put(prefix + "qawk.inventory.initial-delay", "1h");
            }
            return c;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(HawkbitTestResource.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Inject
    InventorySync sync;

    @io.quarkus.test.common.http.TestHTTPResource("/")
    java.net.URL app;

    @Test
    void orchestratedVersusDirect() throws Exception {
        int n = Integer.getInteger("qawk.bench.direct-devices", 1000);
        int rounds = Integer.getInteger("qawk.bench.direct-rounds", 2);
        Duration roundTimeout = Duration.ofSeconds(Integer.getInteger("qawk.bench.direct-round-timeout", 90));
        String prefix = "dvo" + Long.toString(System.nanoTime() % 1_000_000, 36) + "-";
        BenchReport report = new BenchReport("direct", BenchReport.defaultDir());
        HawkbitServer server = SharedHawkbit.get();
        HawkbitFixtures hawkbit = new HawkbitFixtures(server);
        String what = String.format("%,d single-device systems through the orchestrator vs. the same targets assigned"
                + " directly in one bulk call (real hawkBit 0.3.0M7, simulated devices polling every 1 s)", n);
        long t0 = System.nanoTime();
        try (DeviceSimulator devices = new DeviceSimulator(server)) {
            List<DeviceSpec> specs = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String id = String.format("%sd%05d", prefix, i);
                ids.add(id);
                specs.add(DeviceSpec.of(id, Map.of("device", id, "device_type", prefix + "solo", "centerid", "c1")));
            }
            devices.addDevices(specs);
            Duration created = Duration.ofNanos(System.nanoTime() - t0);
            List<Long> sets = new ArrayList<>();
            for (int v = 1; v <= 1 + 2 * rounds; v++) {
                sets.add(hawkbit.createDistributionSet(prefix + "app", String.valueOf(v)));
            }
            boolean reported = await(Duration.ofSeconds(120),
                    () -> count(hawkbit, "attribute.device_type==" + prefix + "solo") >= n);
            assertThat(reported).as("all devices reported their attributes").isTrue();
            Duration attributes = Duration.ofNanos(System.nanoTime() - t0);

            int type = Api.admin().body("{\"name\": \"" + prefix + "solo\", \"systemKey\": \"attribute.device\","
                    + " \"groupKey\": \"attribute.centerid\", \"components\": [{\"componentType\": \"solo\","
                    + " \"match\": \"attribute.device_type==" + prefix + "solo\"}]}").post("/qawk/v1/systemtypes")
                    .then().statusCode(201).extract().path("id");
            sync.syncNow();
            long systems = ((Number) Api.viewer().get("/qawk/v1/systemtypes/" + type + "/systems?limit=1").then()
                    .statusCode(200).extract().path("total")).longValue();
            assertThat(systems).isEqualTo(n);

            // every device starts from version 1, assigned directly and not timed
            Duration prepare = direct(hawkbit, sets.get(0), ids, roundTimeout);
            LOG.infof("prepared %d devices on version 1 in %s", n, ScaleBenchmark.seconds(prepare));

            List<Duration> direct = new ArrayList<>();
            List<Duration> orchestrated = new ArrayList<>();
            long budgetEnd = System.nanoTime() + Duration.ofSeconds(Integer.getInteger("qawk.bench.direct-budget", 200))
                    .toNanos();
            int version = 1;
            String cut = null;
            List<String> syncErrors = new ArrayList<>();
            List<String> phases = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                if (r > 0 && System.nanoTime() + roundTimeout.multipliedBy(2).toNanos() > budgetEnd) {
                    cut = "stopped after " + r + " round(s): time budget";
                    break;
                }
                Duration d = direct(hawkbit, sets.get(version++), ids, roundTimeout);
                if (d == null) {
                    cut = "direct round " + (r + 1) + " not finished in " + roundTimeout.toSeconds() + " s";
                    break;
                }
                direct.add(d);
                try {
                    sync.syncNow(); // the inventory learns what the devices run now (not timed)
                } catch (RuntimeException e) {
                    syncErrors.add("inventory sync after direct round " + (r + 1) + " failed: " + e.getMessage());
                    LOG.warnf(e, "inventory sync after direct round %d failed", r + 1);
                }
                Duration o;
                try {
                    o = orchestrated(hawkbit, type, sets.get(version++), n, prefix + "r" + r, roundTimeout, phases);
                } catch (RuntimeException | AssertionError e) {
                    cut = "orchestrated round " + (r + 1) + " failed: " + e.getMessage().strip().replace('\n', ' ');
                    LOG.warnf(e, "orchestrated round %d failed", r + 1);
                    break;
                }
                if (o == null) {
                    cut = "orchestrated round " + (r + 1) + " not finished in " + roundTimeout.toSeconds() + " s";
                    break;
                }
                orchestrated.add(o);
                LOG.infof("round %d: direct %s, orchestrated %s", r + 1, ScaleBenchmark.seconds(d),
                        ScaleBenchmark.seconds(o));
            }
            double pollRate = ids.stream().mapToLong(devices::pollCount).sum()
                    / Math.max(1.0, (System.nanoTime() - t0) / 1e9);
            long errors = ids.stream().mapToLong(devices::errorCount).sum();
            report.note(String.format(Locale.ROOT, "%,d simulated devices: targets created in %s, all attributes in"
                            + " hawkBit after %s; the devices polled %.0f times a second on average (%,d polling"
                            + " errors) — %s.", n, ScaleBenchmark.seconds(created), ScaleBenchmark.seconds(attributes),
                    pollRate, errors, pollRate >= 0.8 * n ? "the simulator kept its 1 s polling"
                            : "the simulator (or hawkBit) did NOT keep 1 s polling; both sides wait on the same polls"));
            report.note("Direct rounds: " + seconds(direct) + "; orchestrated rounds: " + seconds(orchestrated)
                    + (cut == null ? "" : "; " + cut) + ". Direct = from the bulk assignment until hawkBit shows every"
                    + " target with the set installed; orchestrated = from POST …/start until the deployment is"
                    + " FINISHED (engine every 1 s), after an untimed inventory sync. Where an orchestrated round's"
                    + " time went (from start): " + (phases.isEmpty() ? "n/a" : String.join("; ", phases)) + "."
                    + (syncErrors.isEmpty() ? "" : " " + String.join("; ", syncErrors)
                    + " (the orchestrated round ran on the inventory as it was)."));
            if (direct.isEmpty() || orchestrated.isEmpty()) {
                report.row(what, "wall-time ratio ≤ 1.2", "not measured: " + cut, "**no**");
            } else {
                double ratio = median(orchestrated) / median(direct);
                report.row(what, "wall-time ratio ≤ 1.2", String.format(Locale.ROOT,
                        "ratio %.2f (orchestrated %.1f s vs direct %.1f s, medians of %d round(s))", ratio,
                        median(orchestrated), median(direct), orchestrated.size()), BenchReport.met(ratio <= 1.2));
            }
        } finally {
            report.note("Whole side-by-side test: " + ScaleBenchmark.seconds(Duration.ofNanos(System.nanoTime() - t0))
                    + ".");
            LOG.infof("side-by-side table written to %s", report.write("results.md"));
        }
    }

    /** Assigns {@code set} to all targets in one call; the time until all run it, or null at the timeout. */
    private static Duration direct(HawkbitFixtures hawkbit, long set, List<String> ids, Duration timeout) {
        String installed = installedQuery(hawkbit, set);
        long t0 = System.nanoTime();
        hawkbit.assign(set, ids);
        boolean done = await(timeout, () -> count(hawkbit, installed) >= ids.size());
        return done ? Duration.ofNanos(System.nanoTime() - t0) : null;
    }

    private Duration orchestrated(HawkbitFixtures hawkbit, int type, long set, int n, String name, Duration timeout,
                                  List<String> phases) {
        int manifest = Api.admin().body("{\"name\": \"" + name + "\", \"systemTypeId\": " + type + ", \"components\":"
                + " [{\"componentType\": \"solo\", \"distributionSetId\": " + set + ", \"order\": 1}]}")
                .post("/qawk/v1/manifests").then().statusCode(201).extract().path("id");
        int id = Api.admin().body("{\"name\": \"" + name + "\", \"manifestId\": " + manifest + ", \"maxParallel\": "
                        + Math.min(10_000, n) + ", \"maxFailed\": " + n + "}").post("/qawk/v1/systemdeployments")
                .then().statusCode(201).extract().path("id");
        Map<String, Double> before = Scrape.metrics(app.toString(), "qawk_engine_pass_seconds",
                "qawk_hawkbit_requests_seconds_count", "qawk_hawkbit_requests_seconds_sum");
        long t0 = System.nanoTime();
        Api.admin().post("/qawk/v1/systemdeployments/" + id + "/start").then().statusCode(200);
        String assigned = assignedQuery(hawkbit, set);
        String installed = installedQuery(hawkbit, set);
        long[] allAssigned = {0};
        long[] allInstalled = {0};
        boolean done = await(timeout, () -> {
            long now = System.nanoTime() - t0;
            if (allAssigned[0] == 0 && count(hawkbit, assigned) >= n) {
                allAssigned[0] = now;
            }
            if (allInstalled[0] == 0 && count(hawkbit, installed) >= n) {
                allInstalled[0] = now;
            }
            String state = Api.viewer().get("/qawk/v1/systemdeployments/" + id).then().statusCode(200).extract()
                    .path("state");
            return "FINISHED".equals(state) || "FAILED".equals(state);
        });
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        Map<String, Double> d = Scrape.delta(before, Scrape.metrics(app.toString(), "qawk_engine_pass_seconds",
                "qawk_hawkbit_requests_seconds_count", "qawk_hawkbit_requests_seconds_sum"));
        Map<String, String> perOperation = new java.util.TreeMap<>();
        d.forEach((k, v) -> {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("operation=\"([^\"]+)\"").matcher(k);
            if (k.startsWith("qawk_hawkbit_requests_seconds_count") && v > 0 && m.find()) {
                double sum = Scrape.sum(d, k.replace("_count", "_sum"));
                perOperation.merge(m.group(1), String.format(Locale.ROOT, "%.0f× avg %.0f ms", v, sum * 1000 / v),
                        (a, b) -> a + " + " + b);
            }
        });
        phases.add(String.format(Locale.ROOT, "all %d assigned in hawkBit after %.1f s, all installed after %.1f s,"
                        + " deployment FINISHED after %.1f s; %.0f engine passes, %.1f s in them; hawkBit requests: %s",
                n, allAssigned[0] / 1e9, allInstalled[0] / 1e9, took.toNanos() / 1e9,
                Scrape.sum(d, "qawk_engine_pass_seconds_count"), Scrape.sum(d, "qawk_engine_pass_seconds_sum"),
                perOperation));
        return done ? took : null;
    }

    private static String assignedQuery(HawkbitFixtures hawkbit, long set) {
        return installedQuery(hawkbit, set).replace("installedDS.", "assignedDS.");
    }

    private static String installedQuery(HawkbitFixtures hawkbit, long set) {
        com.fasterxml.jackson.databind.JsonNode ds = hawkbit.distributionSet(set);
        return "installedDS.name==" + HawkbitFixtures.quote(ds.path("name").asText()) + ";installedDS.version=="
                + HawkbitFixtures.quote(ds.path("version").asText());
    }

    private static long count(HawkbitFixtures hawkbit, String fiql) {
        return hawkbit.get("/rest/v1/targets?limit=1&q=" + java.net.URLEncoder.encode(fiql,
                java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20")).path("total").asLong();
    }

    private static boolean await(Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    private static double median(List<Duration> all) {
        double[] v = all.stream().mapToDouble(d -> d.toNanos() / 1e9).sorted().toArray();
        return v[v.length / 2];
    }

    private static String seconds(List<Duration> all) {
        return all.isEmpty() ? "none" : String.join(", ", all.stream().map(ScaleBenchmark::seconds).toList());
    }
}
