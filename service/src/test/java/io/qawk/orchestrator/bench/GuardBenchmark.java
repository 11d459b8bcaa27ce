package io.qawk.orchestrator.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

import io.qawk.orchestrator.guard.GuardPass;
import io.qawk.orchestrator.guard.GuardQueryTimes;
import io.qawk.orchestrator.inventory.InventorySync;
import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import io.qawk.orchestrator.testsupport.Api;

/**
 * Issue 40's guard at scale: hawkBit holds {@code rollouts} open rollouts and {@code filters} auto-assigning target
 * filters, a share of them ({@code memberPercent} of each hundred) over members of the scale fleet's systems (half a
 * centre's terminals, half one system's display: each would leave systems mixed), the rest over devices in no system
 * ({@code loose} kiosks, ten to a site). {@link GuardPass#pass()} is then called directly, as a sync's observer calls
 * it: first with nothing remembered, then {@code warmRuns} times with nothing changed, then after {@code changed}
 * rollouts and filters moved their {@code lastModifiedAt}. Per pass: hawkBit's requests by operation (counted by the
 * double), wall time, the calling thread's CPU, the service's CPU (the JVM's minus the double's threads) and
 * Postgres' CPU.
 * <p>
 * Asserted, so that the benchmark can fail (each query here matches at most 500 targets, one page): the first pass
 * asks exactly one target query per rollout and filter, a pass with nothing changed asks none, and a pass after
 * {@code changed} changes asks exactly that many.
 */
final class GuardBenchmark {

    private static final Logger LOG = Logger.getLogger(GuardBenchmark.class);
    /** hawkBit's open rollout statuses, which the guard reads. */
    static final List<String> OPEN = List.of("creating", "ready", "waiting_for_approval", "scheduled", "starting",
            "running", "paused");

    record Sizes(String label, int systems, int loose, int rollouts, int filters, int memberPercent, int changed,
            int warmRuns) {

        /** {@code -Dqawk.bench.guard.*}, with the sizes as defaults. */
        static Sizes fromSystemProperties() {
            return new Sizes("guard", Integer.getInteger("qawk.bench.guard.systems", 25_000),
                    Integer.getInteger("qawk.bench.guard.loose", 2_000),
                    Integer.getInteger("qawk.bench.guard.rollouts", 1_000),
                    Integer.getInteger("qawk.bench.guard.filters", 1_000),
                    Integer.getInteger("qawk.bench.guard.member-percent", 10),
                    Integer.getInteger("qawk.bench.guard.changed", 10),
                    Integer.getInteger("qawk.bench.guard.warm-runs", 3));
        }

        /** After the smoke scale benchmark (its 200 systems): 100 + 100, for the normal test run. */
        static Sizes smoke() {
            return new Sizes("guard-smoke", 200, 200, 100, 100, 10, 4, 1);
        }

        int centres() {
            return Math.max(1, systems / 100); // as ScaleBenchmark populates
        }
    }

    /** One measured pass. */
    record Pass(String what, Duration wall, Duration threadCpu, Duration serviceCpu, Duration postgresCpu,
            ScaleHawkbit.Counts counts, Duration doubleBusy, GuardPass.Report report) {

        long targetQueries() {
            return counts.get(ScaleHawkbit.Op.TARGETS);
        }
    }

    record Result(Pass first, List<Pass> unchanged, Pass changed, long expectedFirstQueries, long expectedChanged,
            Path table) {
    }

    private final ScaleHawkbit hawkbit;
    private final GuardPass guard;
    private final Sizes sizes;
    private final BenchReport report;
    private final List<Long> postgres;
    private final List<Long> rolloutIds = new ArrayList<>();
    private final List<Long> filterIds = new ArrayList<>();
    private final Map<Long, String> filterQueries = new HashMap<>();
    /** Every device some rollout or filter targets (what a pass looks up among the members). */
    private final Set<String> targeted = new HashSet<>();
    private long memberWork;

    GuardBenchmark(ScaleHawkbit hawkbit, GuardPass guard, Sizes sizes) {
        this.hawkbit = hawkbit;
        this.guard = guard;
        this.sizes = sizes;
        this.report = new BenchReport(sizes.label(), BenchReport.defaultDir());
        this.postgres = Machine.postgresPids(BenchReport.defaultDir().getParent());
    }

    /**
     * The scale fleet of {@code sizes.systems()} systems in the double, of {@link ScaleBenchmark}'s lane type, each
     * device on version 1 of its set, the loose devices beside them, and the first inventory sync; returns its wall
     * time.
     */
    static Duration fleetAndFirstSync(ScaleHawkbit hawkbit, InventorySync sync, Sizes sizes) {
        List<String> types = ScaleBenchmark.componentTypes(4);
        ScaleHawkbit.Population lanes = hawkbit.populate(sizes.systems(), 4, types, sizes.centres(),
                ScaleBenchmark.TYPE_PREFIX);
        ScaleBenchmark.setsWithVersion1Installed(hawkbit, lanes);
        addLoose(hawkbit, sizes);
        Api.admin().body(ScaleBenchmark.systemTypeJson("bench-lane-" + System.nanoTime(), types))
                .post("/qawk/v1/systemtypes").then().statusCode(201);
        long t0 = System.nanoTime();
        sync.syncNow();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.infof("guard benchmark: first sync of %,d targets took %s", lanes.deviceCount() + sizes.loose(),
                ScaleBenchmark.seconds(took));
        return took;
    }

    private static void addLoose(ScaleHawkbit hawkbit, Sizes sizes) {
        for (int i = 0; i < sizes.loose(); i++) {
            hawkbit.addTarget(String.format("loose-%05d", i),
                    Map.of("device_type", "kiosk", "site", String.format("site-%03d", i / 10)));
        }
    }

    /** Seeds the rollouts and filters and measures the passes; {@code looseToAdd}: the loose devices are not there yet. */
    Result run(boolean looseToAdd, String fleetNote) {
        if (looseToAdd) {
            addLoose(hawkbit, sizes);
        }
        seed();
        long expectedFirst = rolloutIds.size() + filterIds.size();
        report.note("Guard benchmark (issue 40): " + String.format("%,d", sizes.rollouts()) + " open rollouts and "
                + String.format("%,d", sizes.filters()) + " auto-assigning target filters in the hawkBit double, "
                + memberWork + " of them over system members (" + sizes.memberPercent() + " in each hundred: a"
                + " centre's terminals or one system's display, each leaving systems mixed), the others over "
                + String.format("%,d", sizes.loose()) + " devices in no system; " + fleetNote + ". The guard in watch"
                + " mode (the type's default); each query matches at most 500 targets (one page).");

        Pass first = measure("first pass (nothing remembered)");
        List<Pass> unchanged = new ArrayList<>();
        for (int i = 1; i <= sizes.warmRuns(); i++) {
            unchanged.add(measure("pass " + (i + 1) + ", nothing changed"));
        }
        int changedRollouts = Math.min(rolloutIds.size(), (sizes.changed() + 1) / 2);
        int changedFilters = Math.min(filterIds.size(), sizes.changed() - changedRollouts);
        for (int i = 0; i < changedRollouts; i++) {
            long id = rolloutIds.get(i * Math.max(1, rolloutIds.size() / Math.max(1, changedRollouts)));
            hawkbit.setRolloutStatus(id, hawkbit.rollout(id).status()); // as hawkBit does when a rollout moves on
        }
        for (int i = 0; i < changedFilters; i++) {
            long id = filterIds.get(i * Math.max(1, filterIds.size() / Math.max(1, changedFilters)));
            hawkbit.setFilterQuery(id, filterQueries.get(id)); // saved again by an operator
        }
        Pass changed = measure("after " + (changedRollouts + changedFilters) + " rollouts/filters changed");

        String size = String.format("%,d rollouts + %,d filters, %,d systems", sizes.rollouts(), sizes.filters(),
                sizes.systems());
        long listPages = pages(sizes.rollouts()) + pages(sizes.filters());
        report.row("guard pass, first (nothing remembered), " + size,
                "one target query per rollout/filter (" + expectedFirst + ") + list pages",
                figures(first), BenchReport.met(first.targetQueries() == expectedFirst));
        Pass median = unchanged.isEmpty() ? null
                : unchanged.stream().sorted(Comparator.comparing(Pass::wall)).toList().get(unchanged.size() / 2);
        long maxUnchanged = unchanged.stream().mapToLong(Pass::targetQueries).max().orElse(0);
        report.row("guard pass, nothing changed (the sync's extra requests), " + size,
                "0 target queries; the lists' pages (" + listPages + ") + set reads",
                median == null ? "not run" : figures(median) + (unchanged.size() > 1 ? "; median of "
                        + unchanged.size() + " by wall: " + String.join(", ", unchanged.stream()
                        .map(p -> ScaleBenchmark.seconds(p.wall())).toList()) : ""),
                BenchReport.met(median != null && maxUnchanged == 0));
        report.row("guard pass, " + (changedRollouts + changedFilters) + " rollouts/filters changed, " + size,
                (changedRollouts + changedFilters) + " target queries", figures(changed),
                BenchReport.met(changed.targetQueries() == changedRollouts + changedFilters));
        StringBuilder steps = new StringBuilder("Every guard pass (service CPU: this JVM minus the double's threads;"
                + " double busy: the double's summed answering time):\n\n| pass | wall | pass thread CPU | service CPU"
                + " | Postgres CPU | double busy | threats | requests | by operation |\n|---|---|---|---|---|---|---|---|---|\n");
        List<Pass> all = new ArrayList<>(List.of(first));
        all.addAll(unchanged);
        all.add(changed);
        for (Pass p : all) {
            steps.append("| ").append(p.what()).append(" | ").append(ScaleBenchmark.seconds(p.wall())).append(" | ")
                    .append(ScaleBenchmark.seconds(p.threadCpu())).append(" | ")
                    .append(ScaleBenchmark.seconds(p.serviceCpu())).append(" | ")
                    .append(p.postgresCpu().isNegative() ? "n/a" : ScaleBenchmark.seconds(p.postgresCpu()))
                    .append(" | ").append(ScaleBenchmark.seconds(p.doubleBusy())).append(" | ")
                    .append(p.report().threats()).append(" | ").append(p.counts().total()).append(" | ")
                    .append(p.counts().perOperation()).append(" |\n");
        }
        report.note(steps.toString());
        GuardQueryTimes.Times q = GuardQueryTimes.measure(targeted, 100, 3);
        report.note(String.format(Locale.ROOT, "The pass's reads outside its transaction, each alone (best"
                + " of 3): the members of the %,d targeted devices %.0f ms (%,d systems), the foreign assignments"
                + " %.0f ms (%d found), the metrics' counts %.0f ms; the rest of a pass's database time is the"
                + " system types' read and the transaction (lock, holds, threats rewritten).", targeted.size(), q.holdingMs(), q.systems(),
                q.foreignMs(), q.foreign(), q.countsMs()));
        LOG.infof("guard benchmark, reads: %s", q);
        Path table = report.write(sizes.label().contains("smoke") ? "results-smoke.md" : "results.md");
        return new Result(first, unchanged, changed, expectedFirst, changedRollouts + changedFilters, table);
    }

    private static long pages(int n) {
        return Math.max(1, (n + ScaleHawkbit.MAX_PAGE - 1) / ScaleHawkbit.MAX_PAGE);
    }

    private static String figures(Pass p) {
        return ScaleBenchmark.seconds(p.wall()) + ", pass thread CPU " + ScaleBenchmark.seconds(p.threadCpu())
                + ", service CPU " + ScaleBenchmark.seconds(p.serviceCpu())
                + (p.postgresCpu().isNegative() ? "" : ", Postgres CPU " + ScaleBenchmark.seconds(p.postgresCpu()))
                + "; " + p.counts().total() + " requests (" + p.counts().perOperation() + "); " + p.report().threats()
                + " threats" + (p.report().error() == null ? "" : "; error: " + p.report().error());
    }

    /**
     * Rollout/filter {@code i}: over members when {@code i % 100 < memberPercent} (even: a centre's terminals to
     * {@code guard-term:3}; odd: one system's display to {@code guard-disp:3}), else over the ten kiosks of a site
     * ({@code guard-kiosk:3}). Rollouts cycle through the open statuses.
     */
    private void seed() {
        long term = hawkbit.addDistributionSet("guard-term", "3");
        long disp = hawkbit.addDistributionSet("guard-disp", "3");
        long kiosk = hawkbit.addDistributionSet("guard-kiosk", "3");
        int sites = Math.max(1, sizes.loose() / 10);
        for (int kind = 0; kind < 2; kind++) {
            int n = kind == 0 ? sizes.rollouts() : sizes.filters();
            for (int i = 0; i < n; i++) {
                String query;
                long set;
                if (i % 100 < sizes.memberPercent()) {
                    memberWork++;
                    // spread over the fleet: rollouts and filters over different centres and systems
                    int spread = i * 7 + kind * 3;
                    if (i % 2 == 0) {
                        int centre = spread % sizes.centres();
                        query = String.format("attribute.centerid==c%04d;attribute.device_type==%sterminal",
                                centre, ScaleBenchmark.TYPE_PREFIX);
                        set = term;
                        for (int system = centre; system < sizes.systems(); system += sizes.centres()) {
                            targeted.add(String.format("sys-%06d-terminal-1", system));
                            targeted.add(String.format("sys-%06d-terminal-2", system));
                        }
                    } else {
                        int system = (spread * 131) % sizes.systems();
                        query = String.format("attribute.device==sys-%06d;attribute.device_type==%sdisplay",
                                system, ScaleBenchmark.TYPE_PREFIX);
                        set = disp;
                        targeted.add(String.format("sys-%06d-display-3", system));
                    }
                } else {
                    int site = (i + kind * 17) % sites;
                    query = String.format("attribute.site==site-%03d", site);
                    set = kiosk;
                    for (int k = site * 10; k < Math.min(sizes.loose(), site * 10 + 10); k++) {
                        targeted.add(String.format("loose-%05d", k));
                    }
                }
                if (kind == 0) {
                    rolloutIds.add(hawkbit.addRollout("guard-rollout-" + i, query, set, OPEN.get(i % OPEN.size())));
                } else {
                    long id = hawkbit.addTargetFilter("guard-filter-" + i, query, set, "forced");
                    filterIds.add(id);
                    filterQueries.put(id, query);
                }
            }
        }
    }

    private Pass measure(String what) {
        hawkbit.reset();
        ScaleHawkbit.Counts c0 = hawkbit.snapshot();
        long pg0 = Machine.cpuNanosOf(postgres);
        long svc0 = Machine.serviceCpuNanos();
        long cpu0 = Machine.currentThreadCpuNanos();
        long t0 = System.nanoTime();
        GuardPass.Report r = guard.pass();
        long t1 = System.nanoTime();
        long cpu1 = Machine.currentThreadCpuNanos();
        long svc1 = Machine.serviceCpuNanos();
        long pg1 = Machine.cpuNanosOf(postgres);
        Pass p = new Pass(what, Duration.ofNanos(t1 - t0), Duration.ofNanos(cpu1 - cpu0), Duration.ofNanos(svc1 - svc0),
                pg0 < 0 || pg1 < 0 ? Duration.ofNanos(-1) : Duration.ofNanos(pg1 - pg0), hawkbit.snapshot().minus(c0),
                hawkbit.handlingTime(), r);
        LOG.infof("guard benchmark, %s: %s", what, figures(p));
        return p;
    }
}
