package io.qawk.orchestrator.bench;

import com.sun.management.ThreadMXBean;
import io.qawk.orchestrator.deployment.model.DeviceState;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunState;
import io.qawk.orchestrator.deployment.model.SystemRun;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import io.qawk.orchestrator.deployment.store.RunDeviceWriter;
import io.qawk.orchestrator.deployment.store.SystemRunWriter;
import io.qawk.orchestrator.deployment.store.WriterAccess;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import org.hibernate.StatelessSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 35 §3: are {@code system_run} and {@code run_device} written by the plain-JDBC writers
 * ({@link SystemRunWriter}, {@link RunDeviceWriter}: {@code update … from unnest(arrays)}, a thousand rows per
 * statement, at the commit) or by Hibernate's {@link StatelessSession} ({@code updateMultiple}, one JDBC batch)? A
 * deployment of {@code -Dqawk.bench.write.systems} runs (default 5,000) with four devices each is stored untimed, then
 * the write of a big engine pass is timed: every run PENDING → RUNNING with its start time, every device WAITING →
 * ASSIGNING with its intent time, all in one transaction, read (and the runs locked) and written by each path:
 * <ul>
 *   <li>{@code writers}: as the engine does it, {@code SystemRunWriter.lock}, {@code RunDeviceWriter.read}, the
 *   changes, {@code RunDeviceWriter.changed}; written at the commit ({@code BeforeCommit});</li>
 *   <li>{@code stateless}: the runs read locked and the devices read as entities by the stateless session, then
 *   {@code updateMultiple} of each;</li>
 *   <li>{@code stateless-on-jdbc-read}: the rows read as the writers read them (runs locked by a native select), then
 *   written by {@code updateMultiple}: the write alone compared;</li>
 *   <li>{@code managed}: the old way, managed entities read locked, dirty-checked and flushed at the commit (batches
 *   of {@code quarkus.hibernate-orm.jdbc.statement-batch-size}).</li>
 * </ul>
 * Each variant runs once untimed, then {@code -Dqawk.bench.write.repeats} times (default 5) in turns, the order
 * rotated each round, the rows put back between samples (and vacuumed, then a checkpoint) untimed. After every
 * sample the rows must be in their new states at the sample's times and every run's version one up: a variant that
 * writes wrongly fails the test. Measured per sample: wall time (and of it the write with the commit), the test
 * thread's CPU and allocated bytes (it does all the Java work), and Postgres' CPU. Run with {@code ./mvnw -B -o
 * -Pbenchmark test -pl service -am -Dtest=RunWritePathBenchmarkTest -Dsurefire.failIfNoSpecifiedTests=false}; the
 * table goes to the output and to {@code target/benchmark/results.md}.
 */
@Tag("benchmark")
@QuarkusTest
@TestProfile(RunWritePathBenchmarkTest.WithEntityWrites.class)
class RunWritePathBenchmarkTest {

    /**
     * The benchmark's settings, with Hibernate's JPA callbacks off: the entities refuse writes in {@code @PreUpdate}
     * (the writers are their one write path), and the Hibernate variants measured here must still be able to write.
     */
    public static class WithEntityWrites extends BenchProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>(super.getConfigOverrides());
            c.put("quarkus.hibernate-orm.unsupported-properties.\"hibernate.jpa_callbacks.enabled\"", "false");
            return c;
        }
    }

    static final int DEVICES_PER_SYSTEM = 4;

    /** The devices' read order, as the writer reads them. */
    static final String DEVICES_OF_DEPLOYMENT = "from RunDevice d where d.runId in (select r.id from SystemRun r"
            + " where r.deploymentId = :d) order by d.runId, d.order, d.controllerId";

    static final String RUNS_OF_DEPLOYMENT = "from SystemRun r where r.deploymentId = :d order by r.id";

    enum Variant {
        WRITERS("writers"), STATELESS("stateless"), STATELESS_ON_JDBC_READ("stateless-on-jdbc-read"),
        MANAGED("managed");

        final String label;

        Variant(String label) {
            this.label = label;
        }
    }

    /** One timed sample: wall and write+commit milliseconds, test thread CPU and allocation, Postgres CPU. */
    record Sample(long wallMs, long writeMs, long threadCpuMs, long allocatedBytes, long postgresCpuMs) {
    }

    @Inject
    DataSource dataSource;

    @Inject
    EntityManager em;

    @Inject
    StatelessSession stateless;

    @Inject
    SystemRunWriter runWriter;

    @Inject
    RunDeviceWriter deviceWriter;

    @Test
    void runWritePaths() throws SQLException {
        int systems = Integer.getInteger("qawk.bench.write.systems", 5_000);
        int repeats = Integer.getInteger("qawk.bench.write.repeats", 5);
        String loadBefore = load();
        long deploymentId = seed(systems);
        List<Long> runIds = runIds(deploymentId);
        assertThat(runIds).hasSize(systems);

        Variant[] variants = Variant.values();
        for (Variant v : variants) { // warm-up: queries translated, code compiled
            sample(v, deploymentId, runIds);
        }
        Map<Variant, List<Sample>> samples = new EnumMap<>(Variant.class);
        for (int round = 0; round < repeats; round++) {
            for (int i = 0; i < variants.length; i++) {
                Variant v = variants[(round + i) % variants.length];
                samples.computeIfAbsent(v, k -> new ArrayList<>()).add(sample(v, deploymentId, runIds));
            }
        }
        String loadAfter = load();

        String rows = String.format("%,d runs + %,d devices", systems, systems * DEVICES_PER_SYSTEM);
        StringBuilder table = new StringBuilder("\n| variant | rows | median ms | write+commit ms | thread CPU ms"
                + " | Postgres CPU ms | allocated MB | statements |\n|---|---|---|---|---|---|---|---|\n");
        BenchReport report = new BenchReport("run-write-path", BenchReport.defaultDir());
        for (Variant v : variants) {
            List<Sample> s = samples.get(v);
            long wall = median(s, Sample::wallMs);
            long write = median(s, Sample::writeMs);
            long cpu = median(s, Sample::threadCpuMs);
            long pg = median(s, Sample::postgresCpuMs);
            double mb = median(s, Sample::allocatedBytes) / (1024.0 * 1024);
            String statements = statements(v, systems);
            table.append(String.format("| %s | %s | %d | %d | %d | %d | %.1f | %s |%n", v.label, rows, wall, write, cpu,
                    pg, mb, statements));
            report.row("run write path " + v.label + ", " + rows + " changed in one transaction", "for information",
                    String.format("median %d ms (write + commit %d ms); test thread CPU %d ms, Postgres CPU %d ms,"
                                    + " allocated %.1f MB; all: %s", wall, write, cpu, pg, mb,
                            s.stream().map(x -> x.wallMs() + "").toList()), "—");
        }
        report.note("Run write path (issue 35 §3): one transaction reads (runs locked) and writes every run PENDING →"
                + " RUNNING and every device WAITING → ASSIGNING; medians of " + repeats + " samples per variant after"
                + " one untimed, variants in turns. Statements: " + statementsNote() + " Load (1/5/15 min) before: "
                + loadBefore + ", after: " + loadAfter + ".");
        System.out.println(table + "\nload before: " + loadBefore + ", after: " + loadAfter + "\n");
        assertThat(report.write("results.md")).exists();
    }

    /** One sample of a variant, its rows put back first; fails when the rows are not as the variant should leave them. */
    private Sample sample(Variant variant, long deploymentId, List<Long> runIds) throws SQLException {
        reset(deploymentId);
        long version = version(deploymentId);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS); // as Postgres keeps it
        Machine.gc();
        List<Long> postgres = Machine.postgresPids(BenchReport.defaultDir().getParent());
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long pg0 = Machine.cpuNanosOf(postgres);
        long cpu0 = threads.getCurrentThreadCpuTime();
        long alloc0 = threads.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        long write0;
        QuarkusTransaction.begin();
        try {
            write0 = switch (variant) {
                case WRITERS -> writers(runIds, at);
                case STATELESS -> stateless(deploymentId, at);
                case STATELESS_ON_JDBC_READ -> statelessOnJdbcRead(runIds, at);
                case MANAGED -> managed(deploymentId, at);
            };
            QuarkusTransaction.commit();
        } catch (RuntimeException | SQLException e) {
            if (QuarkusTransaction.isActive()) {
                QuarkusTransaction.rollback();
            }
            throw e;
        }
        long t1 = System.nanoTime();
        Sample s = new Sample((t1 - t0) / 1_000_000, (t1 - write0) / 1_000_000,
                (threads.getCurrentThreadCpuTime() - cpu0) / 1_000_000,
                threads.getCurrentThreadAllocatedBytes() - alloc0, (Machine.cpuNanosOf(postgres) - pg0) / 1_000_000);
        assertWritten(variant, deploymentId, runIds.size(), at, version + 1);
        return s;
    }

    /** As the engine: the writers lock and read, the changes are named, and written at the commit. */
    private long writers(List<Long> runIds, Instant at) {
        List<SystemRun> runs = WriterAccess.lock(runWriter, runIds);
        Map<Long, List<RunDevice>> devices = WriterAccess.read(deviceWriter, runIds);
        for (SystemRun r : runs) {
            start(r, at);
            for (RunDevice d : devices.get(r.id)) {
                intend(d, at);
                WriterAccess.changed(deviceWriter, d);
            }
        }
        return System.nanoTime(); // the write is the commit's
    }

    private long stateless(long deploymentId, Instant at) {
        List<SystemRun> runs = stateless.createSelectionQuery(RUNS_OF_DEPLOYMENT, SystemRun.class)
                .setParameter("d", deploymentId).setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        List<RunDevice> devices = stateless.createSelectionQuery(DEVICES_OF_DEPLOYMENT, RunDevice.class)
                .setParameter("d", deploymentId).getResultList();
        runs.forEach(r -> start(r, at));
        devices.forEach(d -> intend(d, at));
        long write0 = System.nanoTime();
        stateless.updateMultiple(runs);
        stateless.updateMultiple(devices);
        return write0;
    }

    private long statelessOnJdbcRead(List<Long> runIds, Instant at) throws SQLException {
        try (Connection c = dataSource.getConnection(); // the transaction's
             PreparedStatement lock = c.prepareStatement("select id from system_run where id = any(cast(? as int8[]))"
                     + " order by id for no key update")) {
            lock.setArray(1, c.createArrayOf("int8", runIds.toArray(Long[]::new)));
            try (ResultSet rs = lock.executeQuery()) {
                while (rs.next()) {
                    rs.getLong(1);
                }
            }
        }
        List<SystemRun> runs = runWriter.read(runIds);
        List<RunDevice> devices = WriterAccess.read(deviceWriter, runIds).values().stream()
                .flatMap(List::stream).toList();
        runs.forEach(r -> start(r, at));
        devices.forEach(d -> intend(d, at));
        long write0 = System.nanoTime();
        stateless.updateMultiple(runs);
        stateless.updateMultiple(devices);
        return write0;
    }

    private long managed(long deploymentId, Instant at) {
        List<SystemRun> runs = em.createQuery(RUNS_OF_DEPLOYMENT, SystemRun.class).setParameter("d", deploymentId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        List<RunDevice> devices = em.createQuery(DEVICES_OF_DEPLOYMENT, RunDevice.class)
                .setParameter("d", deploymentId).getResultList();
        runs.forEach(r -> start(r, at));
        devices.forEach(d -> intend(d, at));
        return System.nanoTime(); // the flush is the commit's
    }

    private static void start(SystemRun run, Instant at) {
        run.moveTo(RunState.RUNNING);
        run.startedAt = at;
        run.reason = null;
    }

    private static void intend(RunDevice device, Instant at) {
        device.moveTo(DeviceState.ASSIGNING);
        device.intentAt = at;
    }

    /** Every run RUNNING since {@code at} at {@code version}, every device ASSIGNING since {@code at}, the rest kept. */
    private void assertWritten(Variant variant, long deploymentId, int systems, Instant at, long version)
            throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement runs = c.prepareStatement("select count(*) filter (where state = 'RUNNING'"
                     + " and started_at = ? and version = ? and attempt = 1 and system_name = 'sys-' || lpad(seq::text, 6,"
                     + " '0')), count(*) from system_run where deployment_id = ?");
             PreparedStatement devices = c.prepareStatement("select count(*) filter (where d.state = 'ASSIGNING'"
                     + " and d.intent_at = ? and d.to_set = 'app:2' and d.from_set = 'app:1'"
                     + " and d.controller_id like r.system_name || '-%'), count(*)"
                     + " from run_device d join system_run r on r.id = d.run_id where r.deployment_id = ?")) {
            runs.setTimestamp(1, Timestamp.from(at));
            runs.setLong(2, version);
            runs.setLong(3, deploymentId);
            try (ResultSet rs = runs.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("%s: runs RUNNING since %s at version %d, of %d", variant.label, at,
                        version, rs.getLong(2)).isEqualTo(systems);
            }
            devices.setTimestamp(1, Timestamp.from(at));
            devices.setLong(2, deploymentId);
            try (ResultSet rs = devices.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("%s: devices ASSIGNING since %s, of %d", variant.label, at, rs.getLong(2))
                        .isEqualTo((long) systems * DEVICES_PER_SYSTEM);
            }
        }
    }

    /** The runs' one version (the same for all: every sample raises each by one, a reset keeps it). */
    private long version(long deploymentId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("select min(version), max(version) from system_run"
                     + " where deployment_id = ?")) {
            s.setLong(1, deploymentId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("every run at one version").isEqualTo(rs.getLong(2));
                return rs.getLong(1);
            }
        }
    }

    /** Runs back to PENDING and devices to WAITING (their versions kept), vacuumed, and a checkpoint: untimed. */
    private void reset(long deploymentId) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("update system_run set state = 'PENDING', started_at = null where deployment_id = "
                    + deploymentId);
            st.executeUpdate("update run_device d set state = 'WAITING', intent_at = null from system_run r"
                    + " where r.id = d.run_id and r.deployment_id = " + deploymentId);
            st.execute("vacuum analyze system_run");
            st.execute("vacuum analyze run_device");
            st.execute("checkpoint");
        }
    }

    /**
     * A system type, a manifest and a deployment (FINISHED: no engine pass takes it), its runs stored as a deployment
     * stores them ({@code SystemRunWriter.insertPending}) and four devices each as the photograph stores them
     * ({@code RunDeviceWriter.inserted}); returns the deployment's id.
     */
    private long seed(int systems) throws SQLException {
        String name = "write-bench-" + UUID.randomUUID();
        long typeId;
        long deploymentId;
        try (Connection c = dataSource.getConnection()) {
            typeId = id(c, "insert into system_type (name, system_key, created_at, updated_at)"
                    + " values (?, 'attribute.device', now(), now()) returning id", name);
            long manifestId = id(c, "insert into manifest (name, system_type_id, created_at, updated_at)"
                    + " values (?, " + typeId + ", now(), now()) returning id", name);
            deploymentId = id(c, "insert into system_deployment (name, manifest_id, max_parallel, max_failed,"
                    + " by_centre, order_timeout_seconds, phase, created_at) values (?, " + manifestId
                    + ", 1, 0, false, 60, 'FINISHED', now()) returning id", name);
        }
        List<SystemRunWriter.Pending> pending = new ArrayList<>(systems);
        for (int i = 0; i < systems; i++) {
            pending.add(new SystemRunWriter.Pending(String.format("sys-%06d", i), "c" + (i % 250), i));
        }
        long type = typeId;
        long deployment = deploymentId;
        int stored = QuarkusTransaction.requiringNew().call(() -> runWriter.insertPending(deployment, type, pending,
                Instant.now(), new TimelineEvent.Created("write path benchmark"), "benchmark"));
        assertThat(stored).isEqualTo(systems);
        List<Long> runIds = runIds(deploymentId);
        String[][] components = {{"lane", "1"}, {"term-a", "2"}, {"term-b", "2"}, {"display", "2"}};
        List<RunDevice> devices = new ArrayList<>(systems * DEVICES_PER_SYSTEM);
        for (int i = 0; i < runIds.size(); i++) {
            for (String[] component : components) {
                RunDevice d = new RunDevice();
                d.runId = runIds.get(i);
                d.controllerId = String.format("sys-%06d-%s", i, component[0]);
                d.componentType = component[0];
                d.order = Integer.parseInt(component[1]);
                d.fromSetId = 1L;
                d.fromSet = "app:1";
                d.toSetId = 2L;
                d.toSet = "app:2";
                devices.add(d);
            }
        }
        QuarkusTransaction.requiringNew().run(() -> WriterAccess.inserted(deviceWriter, devices));
        return deploymentId;
    }

    private List<Long> runIds(long deploymentId) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("select id from system_run where deployment_id = ? order by id")) {
            s.setLong(1, deploymentId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    private static long id(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The statements each variant sends, by construction (selects; updates, and in how many JDBC executions). */
    private static String statements(Variant v, int systems) {
        int devices = systems * DEVICES_PER_SYSTEM;
        int perStatement = 1000;
        int batch = 100; // quarkus.hibernate-orm.jdbc.statement-batch-size
        return switch (v) {
            case WRITERS -> String.format("2 selects + %d updates", ceil(systems, perStatement)
                    + ceil(devices, perStatement));
            case STATELESS -> String.format("2 selects + %,d updates in 2 JDBC batches", systems + devices);
            case STATELESS_ON_JDBC_READ -> String.format("3 selects + %,d updates in 2 JDBC batches",
                    systems + devices);
            case MANAGED -> String.format("2 selects + %,d updates in %d JDBC batches", systems + devices,
                    ceil(systems, batch) + ceil(devices, batch));
        };
    }

    private static String statementsNote() {
        return "counted by construction, not measured: the writers send 1,000 rows per `update … from unnest(…)`;"
                + " `updateMultiple` sends one `update … where id = ? and version = ?` per row, all in one JDBC batch"
                + " per call; a flush sends one per row, in batches of 100.";
    }

    private static int ceil(int n, int per) {
        return (n + per - 1) / per;
    }

    private static long median(List<Sample> samples, ToLongFunction<Sample> figure) {
        List<Long> sorted = samples.stream().map(figure::applyAsLong).sorted(Comparator.naturalOrder()).toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
