package io.qawk.orchestrator.bench;

import static io.qawk.orchestrator.bench.RealHawkbitRounds.await;
import static io.qawk.orchestrator.bench.RealHawkbitRounds.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import io.qawk.orchestrator.bench.RealHawkbitRounds.Load;
import io.qawk.orchestrator.testkit.Behaviour;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testsupport.Api;

/**
 * N lanes of three devices each (a lane computer and two terminals), simulated against the real hawkBit, and the
 * two ways of moving them all to a new pair of sets, terminals first (order 1), the lane after them (order 2):
 * <ul>
 * <li>{@link #script}: what an operator scripts by hand: bulk-assign the terminals' set to every terminal of every
 * lane, wait until hawkBit shows it installed on all of them, bulk-assign the lanes' set, wait again;</li>
 * <li>{@link #qawk}: a deployment of every lane at once (maxParallel N) of a manifest with the same two orders.</li>
 * </ul>
 * Each device installs in 1 s, or with {@code spread} in 1–20 s, drawn once per device from a fixed seed: the same
 * device takes the same time in every round on both sides.
 */
final class ThreeDeviceSystems implements AutoCloseable {

    /**
     * The times of one round: {@code installed} until hawkBit recorded the last device installed ({@link Recorded}),
     * {@code finished} until the side saw its end by polling (Qawk: its deployment {@code FINISHED}; the script: order 2
     * installed); {@code load} is what the service asked of hawkBit (null for the script); {@code gaps}: per lane, from
     * its last terminal finishing in hawkBit to hawkBit accepting its lane's assignment.
     */
    record Timing(Duration installed, Duration finished, String detail, Load load, List<Duration> gaps,
                  double requests) {
    }

    private final SideBySideBenchmarkTest.Bench bench;
    private final HawkbitFixtures hawkbit;
    private final String prefix;
    private final int n;
    private final DeviceSimulator devices;
    private final List<String> lanes = new ArrayList<>();
    private final List<String> terminals = new ArrayList<>();
    private final Map<String, Integer> installSeconds = new LinkedHashMap<>();
    private final Map<Integer, long[]> setPairs = new LinkedHashMap<>();
    private int systemType;

    private ThreeDeviceSystems(SideBySideBenchmarkTest.Bench bench, String prefix, int n) {
        this.bench = bench;
        this.hawkbit = bench.hawkbit();
        this.prefix = prefix;
        this.n = n;
        this.devices = new DeviceSimulator(bench.server());
    }

    /** Creates the devices, waits for their attributes, and makes them a system type the service has synced. */
    static ThreeDeviceSystems create(SideBySideBenchmarkTest.Bench bench, String label, int n, boolean spread) {
        String prefix = label + Long.toString(System.nanoTime() % 1_000_000, 36) + "-";
        ThreeDeviceSystems s = new ThreeDeviceSystems(bench, prefix, n);
        Random seeded = new Random(17);
        List<DeviceSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String system = String.format("%ss%04d", prefix, i);
            for (String part : List.of("lane", "t1", "t2")) {
                String id = system + "-" + part;
                int seconds = spread ? 1 + seeded.nextInt(20) : 1;
                s.installSeconds.put(id, seconds);
                (part.equals("lane") ? s.lanes : s.terminals).add(id);
                specs.add(DeviceSpec.of(id, Map.of("device", system, "centerid", "c1",
                        "device_type", prefix + (part.equals("lane") ? "lane" : "terminal")))
                        .withBehaviour(Behaviour.succeedAfter(Duration.ofSeconds(seconds))));
            }
        }
        s.devices.addDevices(specs);
        assertThat(await(Duration.ofSeconds(120), () -> count(s.hawkbit, "attribute.device==" + prefix + "*") >= 3L * n))
                .as("all %d devices reported their attributes", 3 * n).isTrue();
        s.systemType = Api.admin().body("{\"name\": \"" + prefix + "lanes\", \"systemKey\": \"attribute.device\","
                + " \"groupKey\": \"attribute.centerid\", \"components\": ["
                + "{\"componentType\": \"lane\", \"match\": \"attribute.device_type==" + prefix + "lane\"},"
                + "{\"componentType\": \"terminal\", \"match\": \"attribute.device_type==" + prefix + "terminal\"}]}")
                .post("/qawk/v1/systemtypes").then().statusCode(201).extract().path("id");
        bench.syncNow();
        long systems = ((Number) Api.viewer().get("/qawk/v1/systemtypes/" + s.systemType + "/systems?limit=1")
                .then().statusCode(200).extract().path("total")).longValue();
        assertThat(systems).isEqualTo(n);
        return s;
    }

    int devices() {
        return 3 * n;
    }

    /** Every device on version 0, assigned directly and not timed; the time it took, or null at the timeout. */
    Duration prepare(Duration timeout) {
        long t0 = System.nanoTime();
        long[] pair = sets(0);
        hawkbit.assign(pair[1], lanes);
        Duration d = RealHawkbitRounds.direct(hawkbit, pair[0], terminals, timeout);
        boolean lanesDone = await(timeout, () -> count(hawkbit, RealHawkbitRounds.installedQuery(hawkbit, pair[1]))
                >= n);
        return d != null && lanesDone ? Duration.ofNanos(System.nanoTime() - t0) : null;
    }

    /** The scripted waves to version {@code v}; null when an order did not install within {@code timeout}. */
    Timing script(int v, Duration timeout) {
        long[] pair = sets(v);
        long t0 = System.nanoTime();
        Instant started = Instant.now();
        long polls = polls();
        long[] asked = new long[1];
        Duration first = RealHawkbitRounds.direct(hawkbit, pair[0], terminals, timeout, new Instant[1], asked);
        if (first == null) {
            return null;
        }
        Instant[] lanesAccepted = new Instant[1];
        Duration second = RealHawkbitRounds.direct(hawkbit, pair[1], lanes, timeout, lanesAccepted, asked);
        if (second == null) {
            return null;
        }
        Duration all = Duration.ofNanos(System.nanoTime() - t0);
        String pollRate = pollRate(polls, all);
        // per lane: from its later terminal finishing in hawkBit to hawkBit accepting the lanes' bulk assignment
        Map<String, Instant> terminalsAt = RealHawkbitRounds.installedAt(hawkbit, pair[0]);
        List<Duration> gaps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Instant a = terminalsAt.get(terminals.get(2 * i));
            Instant b = terminalsAt.get(terminals.get(2 * i + 1));
            if (a != null && b != null) {
                gaps.add(Duration.between(a.isAfter(b) ? a : b, lanesAccepted[0]));
            }
        }
        Recorded recorded = recorded(pair, started, terminalsAt);
        return new Timing(recorded.all(), all, String.format(Locale.ROOT, "order 1 installed after %.1f s,"
                + " order 2 after %.1f s more (seen by polling); %s; %s", first.toNanos() / 1e9, second.toNanos() / 1e9,
                recorded, pollRate), null, gaps, asked[0]);
    }

    /** A deployment to version {@code v} through the service; null when it did not end within {@code timeout}. */
    Timing qawk(int v, Duration timeout) {
        long[] pair = sets(v);
        bench.syncQuietly("before a Qawk round of " + prefix);
        Map<String, long[]> components = new LinkedHashMap<>();
        components.put("terminal", new long[] {pair[0], 1});
        components.put("lane", new long[] {pair[1], 2});
        int manifest = RealHawkbitRounds.manifest(systemType, prefix + "v" + v, components);
        int id = RealHawkbitRounds.deployment(manifest, prefix + "v" + v, n, "");
        String terminalsOn = RealHawkbitRounds.installedQuery(hawkbit, pair[0]);
        String lanesAssigned = RealHawkbitRounds.assignedQuery(hawkbit, pair[1]);
        String lanesOn = RealHawkbitRounds.installedQuery(hawkbit, pair[1]);
        Map<String, Double> before = RealHawkbitRounds.load(bench.app());
        long t0 = System.nanoTime();
        Instant started = Instant.now();
        long polls = polls();
        RealHawkbitRounds.start(id);
        long[] at = new long[4]; // terminals installed, lanes assigned, lanes installed, ended
        String[] state = {"RUNNING"};
        boolean ended = await(timeout, () -> {
            if (at[0] == 0 && count(hawkbit, terminalsOn) >= 2L * n) {
                at[0] = System.nanoTime() - t0;
            }
            if (at[1] == 0 && count(hawkbit, lanesAssigned) >= n) {
                at[1] = System.nanoTime() - t0;
            }
            if (at[2] == 0 && count(hawkbit, lanesOn) >= n) {
                at[2] = System.nanoTime() - t0;
            }
            state[0] = RealHawkbitRounds.state(id);
            if (RealHawkbitRounds.ended(state[0])) {
                at[3] = System.nanoTime() - t0;
                return true;
            }
            return false;
        });
        String pollRate = pollRate(polls, Duration.ofNanos(System.nanoTime() - t0));
        Load load = RealHawkbitRounds.Load.between(before, RealHawkbitRounds.load(bench.app()));
        if (!ended || !"FINISHED".equals(state[0]) || at[0] == 0 || at[2] == 0) {
            // why, for the notes: the deployment as the API shows it, and which of the round's points were reached
            bench.notes().add(String.format(Locale.ROOT, "Qawk round to version %d of %s: deployment %d %s after"
                            + " %.0f s (%s), terminals installed %s, lanes assigned %s, lanes installed %s", v, prefix,
                    id, state[0], (System.nanoTime() - t0) / 1e9, RealHawkbitRounds.summary(id), reached(at[0]),
                    reached(at[1]), reached(at[2])));
            return null;
        }
        RealHawkbitRounds.Timelines timelines = RealHawkbitRounds.qawkTimelines(id);
        Recorded recorded = recorded(pair, started, RealHawkbitRounds.installedAt(hawkbit, pair[0]));
        return new Timing(recorded.all(), Duration.ofNanos(at[3]),
                String.format(Locale.ROOT, "every system photographed after %.1f s and its order 1 taken by hawkBit"
                                + " after %.1f s (the last of each, from the timelines); terminals all installed after"
                                + " %.1f s, lanes all assigned after %.1f s and installed after %.1f s (seen by"
                                + " polling), deployment FINISHED after %.1f s; %s; %s; %.0f engine passes, %.1f s in"
                                + " them", RealHawkbitRounds.Timelines.lastAfter(timelines.photographed(), started),
                        RealHawkbitRounds.Timelines.lastAfter(timelines.firstAssigned(), started), at[0] / 1e9,
                        at[1] / 1e9, at[2] / 1e9, at[3] / 1e9, recorded, pollRate,
                        load.passes(), load.passSeconds()), load, timelines.gaps(), load.requests());
    }

    private static String reached(long nanos) {
        return nanos == 0 ? "not seen" : String.format(Locale.ROOT, "after %.1f s", nanos / 1e9);
    }

    /**
     * When hawkBit recorded the last terminal and the last device of a round installed ({@code installedAt}), from the
     * round's start: the same clock for both sides, and not late by the polling loop's own requests (each about a
     * second while hundreds of devices poll; Qawk's loop asks three counts and the deployment's state).
     */
    record Recorded(Duration terminals, Duration all) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "as hawkBit recorded them: terminals %.1f s, every device %.1f s",
                    terminals.toNanos() / 1e9, all.toNanos() / 1e9);
        }
    }

    private Recorded recorded(long[] pair, Instant started, Map<String, Instant> terminalsAt) {
        Instant lastTerminal = terminalsAt.values().stream().max(Instant::compareTo).orElse(started);
        Instant last = RealHawkbitRounds.installedAt(hawkbit, pair[1]).values().stream()
                .reduce(lastTerminal, (a, b) -> a.isAfter(b) ? a : b);
        return new Recorded(Duration.between(started, lastTerminal), Duration.between(started, last));
    }

    /**
     * What the engine asks of hawkBit per pass while these systems have nothing due: a deployment of all of them
     * whose only window opens in 12 hours, so every system stays pending; measured over {@code passes} passes.
     */
    Load idle(int passes, Duration timeout) {
        long[] pair = sets(-1);
        Map<String, long[]> components = new LinkedHashMap<>();
        components.put("terminal", new long[] {pair[0], 1});
        components.put("lane", new long[] {pair[1], 2});
        int manifest = RealHawkbitRounds.manifest(systemType, prefix + "idle", components);
        ZonedDateTime opens = ZonedDateTime.now(ZoneOffset.UTC).plusHours(12);
        int id = RealHawkbitRounds.deployment(manifest, prefix + "idle", n, String.format(Locale.ROOT,
                ", \"windows\": {\"default\": {\"schedule\": \"0 %d %d * * ?\", \"duration\": \"00:01\","
                        + " \"timezone\": \"UTC\"}}", opens.getMinute(), opens.getHour()));
        RealHawkbitRounds.start(id);
        try {
            assertThat(await(timeout, () -> ((Number) Api.viewer().get("/qawk/v1/systemdeployments/" + id).then()
                    .statusCode(200).extract().path("waitingForWindow")).intValue() >= n))
                    .as("all %d systems wait for their window", n).isTrue();
            Map<String, Double> before = RealHawkbitRounds.load(bench.app());
            double passesBefore = Scrape.sum(before, "qawk_engine_pass_seconds_count");
            assertThat(await(timeout, () -> Scrape.sum(RealHawkbitRounds.load(bench.app()),
                    "qawk_engine_pass_seconds_count") >= passesBefore + passes))
                    .as("%d engine passes", passes).isTrue();
            return RealHawkbitRounds.Load.between(before, RealHawkbitRounds.load(bench.app()));
        } finally {
            Api.admin().post("/qawk/v1/systemdeployments/" + id + "/abort").then().statusCode(200);
        }
    }

    /**
     * The shortest a round can be, from the install times alone: the script waits for the slowest terminal of all
     * lanes, then the slowest lane; a system alone needs its slower terminal plus its lane.
     */
    String installBounds() {
        int slowestTerminal = terminals.stream().mapToInt(installSeconds::get).max().orElse(0);
        int slowestLane = lanes.stream().mapToInt(installSeconds::get).max().orElse(0);
        int perSystem = 0;
        for (int i = 0; i < n; i++) {
            perSystem = Math.max(perSystem, Math.max(installSeconds.get(terminals.get(2 * i)),
                    installSeconds.get(terminals.get(2 * i + 1))) + installSeconds.get(lanes.get(i)));
        }
        return String.format(Locale.ROOT, "install times alone: scripted waves ≥ %d s (slowest terminal %d s + slowest"
                + " lane %d s), each system on its own ≥ %d s (the slowest system's terminal + lane)",
                slowestTerminal + slowestLane, slowestTerminal, slowestLane, perSystem);
    }

    double pollsPerSecondPerDevice(double seconds) {
        return installSeconds.keySet().stream().mapToLong(devices::pollCount).sum() / Math.max(1.0, seconds)
                / devices();
    }

    /** Every poll these devices made so far. */
    private long polls() {
        return installSeconds.keySet().stream().mapToLong(devices::pollCount).sum();
    }

    /**
     * How often each device polled during a round, from {@code before} ({@link #polls()} at its start) until now, its
     * end:
     * when hawkBit is the bottleneck, a side whose own questions take its time leaves the devices fewer polls.
     */
    private String pollRate(long before, Duration round) {
        return String.format(Locale.ROOT, "devices polled %.2f times a second each", (polls() - before)
                / Math.max(0.001, round.toNanos() / 1e9) / devices());
    }

    long pollErrors() {
        return installSeconds.keySet().stream().mapToLong(devices::errorCount).sum();
    }

    /** The terminals' and the lanes' set of version {@code v} (created on first use; -1 is the idle pair). */
    private long[] sets(int v) {
        return setPairs.computeIfAbsent(v, k -> {
            String version = k < 0 ? "idle" : String.valueOf(k);
            return new long[] {hawkbit.createDistributionSet(prefix + "terminal-fw", version),
                    hawkbit.createDistributionSet(prefix + "lane-app", version)};
        });
    }

    @Override
    public void close() {
        devices.close();
    }
}
