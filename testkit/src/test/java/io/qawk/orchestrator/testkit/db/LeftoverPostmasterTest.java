package io.qawk.orchestrator.testkit.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What a start finds in a data folder's {@code postmaster.pid}, against real Postgres servers from zonky's binaries:
 * a stale file (power loss), a stale file whose PID went to another program, a server left running by a dead
 * process, a server still in use; and the watchdog script that stops a server when its JVM is gone.
 */
class LeftoverPostmasterTest {

    @TempDir
    Path tmp;

    private Path dir;
    private String postgresBinary;
    private List<String> pidFileLines;
    private final List<Process> started = new ArrayList<>();
    private final List<EmbeddedPostgres> servers = new ArrayList<>();

    /** A data folder with a table and a row in it, its server stopped cleanly (no postmaster.pid left). */
    @BeforeEach
    void aFolderWithData() throws Exception {
        dir = tmp.resolve("pg");
        try (EmbeddedPostgres pg = zonky()) {
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("create table kept (v text)");
                s.execute("insert into kept values ('still here')");
            }
            pidFileLines = Files.readAllLines(dir.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            long pid = Long.parseLong(pidFileLines.get(0).trim());
            postgresBinary = ProcessHandle.of(pid).orElseThrow().info().command().orElseThrow();
        }
        servers.clear();
        assertThat(dir.resolve("postmaster.pid")).doesNotExist();
    }

    @AfterEach
    void stopEverything() {
        servers.forEach(s -> {
            try {
                s.close();
            } catch (IOException ignored) {
                // already stopped
            }
        });
        started.forEach(p -> {
            p.destroy(); // SIGTERM: a postmaster shuts down, a sleep ends
            p.onExit().completeOnTimeout(p, 30, TimeUnit.SECONDS).join();
        });
    }

    @Test
    void noLockFileLeavesTheFolderAsItIs() {
        assertThat(LeftoverPostmaster.clear(dir, Duration.ofSeconds(30))).isEqualTo(LeftoverPostmaster.Outcome.FREE);
    }

    @Test
    void aStaleLockFileWithNoProcessBehindItIsLeftToPostgresWhichStartsOnTheDataThatIsThere() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        writePidFile(gone.pid());

        assertThat(LeftoverPostmaster.clear(dir, Duration.ofSeconds(30))).isEqualTo(LeftoverPostmaster.Outcome.STALE);
        assertThat(dir.resolve("postmaster.pid")).as("left for Postgres").exists();

        // zonky does nothing about the file (pg_ctl start -w); Postgres sees the PID is not alive and replaces it
        assertThat(keptValue(zonky())).isEqualTo("still here");
    }

    @Test
    void aStaleLockFileWhosePidWentToAnotherProgramIsRemovedWherePostgresAloneWouldRefuseToStart() throws Exception {
        Process other = start(new ProcessBuilder("sleep", "300"));
        writePidFile(other.pid());

        Process alone = new ProcessBuilder(asZonkyRunsIt(postgresBinary, "-D", dir.toString(), "-p",
                String.valueOf(freePort()))).redirectErrorStream(true).start();
        String refusal = new String(alone.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(alone.waitFor()).as("Postgres alone refuses: %s", refusal).isNotZero();
        assertThat(refusal).contains("already exists");

        assertThat(LeftoverPostmaster.clear(dir, Duration.ofSeconds(30)))
                .isEqualTo(LeftoverPostmaster.Outcome.STALE_PID_REUSED);
        assertThat(other.isAlive()).as("the other program is not touched").isTrue();
        assertThat(keptValue(zonky())).isEqualTo("still here");
    }

    @Test
    void aServerLeftRunningByADeadProcessIsStoppedCleanlyAndTheNextServerStartsOnItsData() throws Exception {
        Process orphan = orphanPostmaster();

        assertThat(LeftoverPostmaster.clear(dir, Duration.ofSeconds(60))).isEqualTo(LeftoverPostmaster.Outcome.STOPPED);

        assertThat(dir.resolve("postmaster.pid")).doesNotExist();
        assertThat(orphan.waitFor(10, TimeUnit.SECONDS)).as("exited").isTrue();
        assertThat(orphan.exitValue()).as("a clean (fast) shutdown").isZero();
        assertThat(keptValue(zonky())).isEqualTo("still here");
    }

    @Test
    void aServerWhoseStarterStillRunsIsNotTouched() throws Exception {
        EmbeddedPostgres inUse = zonky(); // this JVM holds its epg-lock, as a running service would

        assertThatThrownBy(() -> LeftoverPostmaster.clear(dir, Duration.ofSeconds(30)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("in use by another running process");
        assertThat(keptValue(inUse)).isEqualTo("still here");
    }

    @Test
    void theWatchdogStopsTheServerWhenItsJvmLetsGoOfThePipe() throws Exception {
        Process orphan = orphanPostmaster();
        Process dog = start(new ProcessBuilder("sh", "-c", PostmasterWatchdog.SCRIPT, "qawk-postgres-watchdog",
                dir.resolve("postmaster.pid").toString(), String.valueOf(orphan.pid())));

        // while the JVM holds the pipe, the watchdog only waits
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(orphan::isAlive);
        dog.getOutputStream().close(); // what the operating system does when the JVM dies

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> !orphan.isAlive());
        assertThat(orphan.exitValue()).as("a clean (fast) shutdown").isZero();
        assertThat(dir.resolve("postmaster.pid")).doesNotExist();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> !dog.isAlive());
    }

    @Test
    void theWatchdogSignalsNothingWhenTheLockFileNamesAnotherProcess() throws Exception {
        Process other = start(new ProcessBuilder("sleep", "300"));
        Process dog = start(new ProcessBuilder("sh", "-c", PostmasterWatchdog.SCRIPT, "qawk-postgres-watchdog",
                dir.resolve("postmaster.pid").toString(), String.valueOf(other.pid())));

        dog.getOutputStream().close(); // no postmaster.pid at all: the server it watched stopped cleanly

        assertThat(dog.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(dog.exitValue()).isZero();
        assertThat(other.isAlive()).isTrue();
    }

    /** {@code postgres -D <dir>} started by hand, as pg_ctl does, with nobody holding zonky's epg-lock. */
    private Process orphanPostmaster() throws IOException {
        Process pm = start(new ProcessBuilder(asZonkyRunsIt(postgresBinary, "-D", dir.toString(), "-p",
                String.valueOf(freePort()), "-c", "listen_addresses=127.0.0.1")));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() ->
                PostmasterPidFile.read(dir).map(f -> f.pid() == pm.pid()).orElse(false)
                        && Files.readString(dir.resolve("postmaster.pid")).contains("ready"));
        return pm;
    }

    /** As root, zonky runs Postgres (which refuses root) in a user namespace of its own: {@code unshare -U}. */
    private static List<String> asZonkyRunsIt(String... command) {
        List<String> out = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            out.addAll(List.of("unshare", "-U")); // unshare execs the command: the process is the postmaster
        }
        out.addAll(List.of(command));
        return out;
    }

    private Process start(ProcessBuilder pb) throws IOException {
        Process p = pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return p;
    }

    private EmbeddedPostgres zonky() throws IOException {
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dir).setCleanDataDirectory(false)
                .setRegisterShutdownHook(false).setPort(freePort()).start();
        servers.add(pg);
        return pg;
    }

    /** postmaster.pid as the server wrote it while it ran, with {@code pid} in its first line. */
    private void writePidFile(long pid) throws IOException {
        List<String> lines = new ArrayList<>(pidFileLines);
        lines.set(0, String.valueOf(pid));
        Files.write(dir.resolve("postmaster.pid"), lines, StandardCharsets.UTF_8);
    }

    private static String keptValue(EmbeddedPostgres pg) throws SQLException {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select v from kept")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
