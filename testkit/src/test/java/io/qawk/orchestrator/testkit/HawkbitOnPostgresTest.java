package io.qawk.orchestrator.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.qawk.orchestrator.testkit.HawkbitServer.Database;

/**
 * The real hawkBit 0.3.0M7 on an embedded Postgres of its own (the benchmarks' hawkBit): it answers, keeps its
 * targets in Postgres, devices poll it and an assignment installs; closing it stops and removes its database.
 * The end-to-end case is tagged {@code benchmark}: it runs with {@code -Pbenchmark} (before the benchmarks, as the
 * test kit comes first in the reactor), not in the suite, which runs on H2 and would pay about a minute for it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HawkbitOnPostgresTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    @Tag("benchmark")
    void devicesPollAndInstallOnHawkbitWithPostgres() throws Exception {
        Set<String> before = folders();
        HawkbitServer hawkbit = HawkbitServer.builder(SharedHawkbit.projectDir()).database(Database.POSTGRES).start();
        String jdbc;
        try {
            assertThat(hawkbit.database()).isEqualTo(Database.POSTGRES);
            jdbc = hawkbit.databaseUrl().orElseThrow();
            assertThat(folders()).as("a data folder of its own").isNotEmpty().isNotEqualTo(before);
            HawkbitFixtures fixtures = new HawkbitFixtures(hawkbit);
            String prefix = "pg-" + Long.toString(System.nanoTime() % 1_000_000, 36) + "-";
            List<String> ids = List.of(prefix + "lane", prefix + "term1", prefix + "term2");
            try (DeviceSimulator devices = new DeviceSimulator(hawkbit)) {
                devices.addDevices(ids.stream().map(id -> DeviceSpec.of(id, Map.of("device", prefix + "sys",
                        "device_type", id.substring(prefix.length())))).toList());
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                    for (String id : ids) {
                        assertThat(fixtures.attributes(id)).containsEntry("device", prefix + "sys");
                    }
                });
                // the targets and their polls are rows of hawkBit's tables in this Postgres, not of an H2
                assertThat(count(jdbc, "select count(*) from sp_target where controller_id like '" + prefix + "%'"
                        + " and last_target_query is not null")).isEqualTo(3);

                long set = fixtures.createDistributionSet(prefix + "app", "1.0");
                assertThat(fixtures.assign(set, ids).path("assigned").asInt()).isEqualTo(3);
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> assertThat(
                        fixtures.findTargetIds("controllerId==" + prefix + "*;installedDS.name==" + prefix
                                + "app;installedDS.version==1.0")).hasSize(3));
                for (String id : ids) {
                    assertThat(devices.lastAction(id).orElseThrow().outcome()).isEqualTo(ActionRecord.Outcome.SUCCESS);
                    assertThat(fixtures.updateStatus(id)).isEqualTo("in_sync");
                }
            }
        } finally {
            hawkbit.close();
        }
        assertThat(hawkbit.isAlive()).isFalse();
        assertThatThrownBy(() -> count(jdbc, "select 1")).as("its Postgres stopped with it")
                .isInstanceOf(SQLException.class);
        assertThat(folders()).as("its data folder was deleted").isSubsetOf(before);
    }

    @Test
    void databaseNamesAreReadAsTheSystemPropertyGivesThem() {
        assertThat(Database.parse(null)).isEqualTo(Database.H2);
        assertThat(Database.parse(" ")).isEqualTo(Database.H2);
        assertThat(Database.parse("H2")).isEqualTo(Database.H2);
        assertThat(Database.parse("postgres")).isEqualTo(Database.POSTGRES);
        assertThat(Database.parse("PostgreSQL")).isEqualTo(Database.POSTGRES);
        assertThatThrownBy(() -> Database.parse("mysql")).hasMessageContaining("not one of h2, postgres");
    }

    private static long count(String jdbc, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbc, "postgres", "");
                Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Set<String> folders() throws IOException {
        Path parent = HawkbitServer.serverDir(SharedHawkbit.projectDir()).resolve("postgres");
        if (!Files.isDirectory(parent)) {
            return Set.of();
        }
        try (var s = Files.list(parent)) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("hawkbit-pg-"))
                    .collect(Collectors.toSet());
        }
    }
}
