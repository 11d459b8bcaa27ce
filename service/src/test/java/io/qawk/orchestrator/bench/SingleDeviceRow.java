package io.qawk.orchestrator.bench;

import static io.qawk.orchestrator.bench.RealHawkbitRounds.await;
import static io.qawk.orchestrator.bench.RealHawkbitRounds.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jboss.logging.Logger;

import io.qawk.orchestrator.bench.RealHawkbitRounds.Load;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;

/**
 * The row of issue 8, kept by issue 17: N single-device systems updated through the orchestrator against the same N
 * targets assigned directly in one bulk call, same hawkBit, same simulated devices (polling every second, installing
 * in 1 s). Goal: wall-time ratio ≤ 1.2. Rounds alternate (direct, orchestrated, …); each moves every device to a new
 * version of the set. Sized by {@code -Dqawk.bench.direct-devices} (default 1000; 0 leaves the row out) and
 * {@code -Dqawk.bench.direct-rounds} (default 1), within {@code -Dqawk.bench.direct-budget} seconds (200).
 */
final class SingleDeviceRow {

    private static final Logger LOG = Logger.getLogger(SingleDeviceRow.class);

    private SingleDeviceRow() {
    }

    static void run(SideBySideBenchmarkTest.Bench bench, BenchReport report) {
        int n = Integer.getInteger("qawk.bench.direct-devices", 1000);
        if (n <= 0) {
            return;
        }
        int rounds = Integer.getInteger("qawk.bench.direct-rounds", 1);
        Duration roundTimeout = Duration.ofSeconds(Integer.getInteger("qawk.bench.direct-round-timeout", 120));
        String prefix = "dvo" + Long.toString(System.nanoTime() % 1_000_000, 36) + "-";
        HawkbitFixtures hawkbit = bench.hawkbit();
        String what = String.format("%,d single-device systems through the orchestrator vs. the same targets assigned"
                + " directly in one bulk call", n);
        long t0 = System.nanoTime();
        try (DeviceSimulator devices = new DeviceSimulator(bench.server())) {
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
            bench.syncNow();

            // every device starts from version 1, assigned directly and not timed
            Duration prepare = RealHawkbitRounds.direct(hawkbit, sets.get(0), ids, roundTimeout);
            LOG.infof("prepared %d devices on version 1 in %s", n, ScaleBenchmark.seconds(prepare));

            List<Duration> direct = new ArrayList<>();
            List<Duration> orchestrated = new ArrayList<>();
            long budgetEnd = System.nanoTime() + Duration.ofSeconds(Integer.getInteger("qawk.bench.direct-budget", 200))
                    .toNanos();
            int version = 1;
            String cut = null;
            List<String> phases = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                if (r > 0 && System.nanoTime() + roundTimeout.multipliedBy(2).toNanos() > budgetEnd) {
                    cut = "stopped after " + r + " round(s): time budget";
                    break;
                }
                Duration d = RealHawkbitRounds.direct(hawkbit, sets.get(version++), ids, roundTimeout);
                if (d == null) {
                    cut = "direct round " + (r + 1) + " not finished in " + roundTimeout.toSeconds() + " s";
                    break;
                }
                direct.add(d);
                Duration o;
                try {
                    bench.syncQuietly("after direct round " + (r + 1));
                    o = orchestrated(bench, type, sets.get(version++), n, prefix + "r" + r, roundTimeout, phases);
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
            report.note(String.format(Locale.ROOT, "%,d single-device systems: targets created in %s, all attributes"
                            + " in hawkBit after %s; the devices polled %.0f times a second on average (%,d polling"
                            + " errors) — %s.", n, ScaleBenchmark.seconds(created), ScaleBenchmark.seconds(attributes),
                    pollRate, errors, pollRate >= 0.8 * n ? "the simulator kept its 1 s polling"
                            : "the simulator (or hawkBit) did NOT keep 1 s polling; both sides wait on the same polls"));
            report.note("Direct rounds: " + RealHawkbitRounds.seconds(direct) + "; orchestrated rounds: "
                    + RealHawkbitRounds.seconds(orchestrated) + (cut == null ? "" : "; " + cut) + ". Direct = from the"
                    + " bulk assignment until hawkBit shows every target with the set installed; orchestrated = from"
                    + " POST …/start until the deployment is FINISHED, after an untimed inventory sync. Where an"
                    + " orchestrated round's time went (from start): " + (phases.isEmpty() ? "n/a"
                    : String.join("; ", phases)) + ".");
            if (direct.isEmpty() || orchestrated.isEmpty()) {
                report.row(what, "wall-time ratio ≤ 1.2", "not measured: " + cut, "**no**");
            } else {
                double ratio = RealHawkbitRounds.median(orchestrated) / RealHawkbitRounds.median(direct);
                report.row(what, "wall-time ratio ≤ 1.2", String.format(Locale.ROOT,
                        "ratio %.2f (orchestrated %.1f s vs direct %.1f s, medians of %d round(s))", ratio,
                        RealHawkbitRounds.median(orchestrated), RealHawkbitRounds.median(direct),
                        orchestrated.size()), BenchReport.met(ratio <= 1.2));
            }
        } finally {
            LOG.infof("single-device row took %s", ScaleBenchmark.seconds(Duration.ofNanos(System.nanoTime() - t0)));
        }
    }

    private static Duration orchestrated(SideBySideBenchmarkTest.Bench bench, int type, long set, int n, String name,
                                         Duration timeout, List<String> phases) {
        HawkbitFixtures hawkbit = bench.hawkbit();
        int manifest = RealHawkbitRounds.manifest(type, name, Map.of("solo", new long[] {set, 1}));
        int id = RealHawkbitRounds.deployment(manifest, name, n, "");
        Map<String, Double> before = RealHawkbitRounds.load(bench.app());
        long t0 = System.nanoTime();
        RealHawkbitRounds.start(id);
        String assigned = RealHawkbitRounds.assignedQuery(hawkbit, set);
        String installed = RealHawkbitRounds.installedQuery(hawkbit, set);
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
            return RealHawkbitRounds.ended(RealHawkbitRounds.state(id));
        });
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        Load load = Load.between(before, RealHawkbitRounds.load(bench.app()));
        phases.add(String.format(Locale.ROOT, "all %d assigned in hawkBit after %.1f s, all installed after %.1f s,"
                        + " deployment FINISHED after %.1f s; %.0f engine passes, %.1f s in them; hawkBit requests: %s",
                n, allAssigned[0] / 1e9, allInstalled[0] / 1e9, took.toNanos() / 1e9, load.passes(),
                load.passSeconds(), load.perOperation()));
        return done ? took : null;
    }
}
