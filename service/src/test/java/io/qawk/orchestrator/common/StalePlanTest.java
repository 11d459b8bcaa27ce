package io.qawk.orchestrator.common;

import io.agroal.api.AgroalDataSource;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 57: in a rolling upgrade the old replica keeps its connections while the new one migrates the schema. A
 * statement the old replica's driver had prepared on the server (pgjdbc does so from its fifth execution) then failed
 * inside a transaction with {@code cached plan must not change result type}: a read answered 500 and an engine pass
 * failed. The service's datasource must plan such a statement again instead ({@code prepareThreshold=0},
 * application.properties), whatever URL the operator gives.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class StalePlanTest {

    /** More executions than pgjdbc's default prepareThreshold (5), so that its default prepares on the server. */
    static final int EXECUTIONS = 10;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String user;

    @ConfigProperty(name = "quarkus.datasource.password")
    String password;

    @Test
    void withTheDriversDefaultsAMigrationFailsAStatementPreparedBeforeIt() throws SQLException {
        String table = table();
        try (Connection plain = DriverManager.getConnection(url, credentials())) {
            assertThatThrownBy(() -> readAcrossAMigration(plain, table))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("cached plan must not change result type");
        }
    }

    @Test
    void theServicesDatasourcePlansItAgainAndReadsTheNewShape() throws SQLException {
        String table = table();
        try (Connection service = dataSource.getConnection()) {
            for (int round = 1; round <= 3; round++) {
                assertThat(readAcrossAMigration(service, table)).as("columns after migration %d", round)
                        .isEqualTo(2 + round);
            }
        }
    }

    @Test
    void aSettingTheOperatorPutsInTheUrlWinsOverTheServicesDefault() throws SQLException {
        Properties props = credentials();
        props.setProperty("prepareThreshold", ConfigProvider.getConfig()
                .getValue("quarkus.datasource.jdbc.additional-jdbc-properties.prepareThreshold", String.class));
        String operators = url + (url.contains("?") ? "&" : "?") + "prepareThreshold=7";
        try (Connection c = DriverManager.getConnection(operators, props)) {
            assertThat(c.unwrap(PGConnection.class).getPrepareThreshold()).isEqualTo(7);
        }
        try (Connection c = DriverManager.getConnection(url, props)) {
            assertThat(c.unwrap(PGConnection.class).getPrepareThreshold()).isZero();
        }
    }

    /**
     * On {@code c}: the same {@code select *} often enough to be server-prepared, in one transaction; then a column
     * added to its table from another connection (a migration of the new version); then, in a transaction that already
     * did something, the statement again. Its column count.
     */
    private int readAcrossAMigration(Connection c, String table) throws SQLException {
        String sql = "select * from " + table + " where id = ?";
        c.setAutoCommit(false);
        try {
            for (int i = 0; i < EXECUTIONS; i++) {
                read(c, sql);
            }
            c.commit();
            try (Connection migration = DriverManager.getConnection(url, credentials());
                    Statement s = migration.createStatement()) {
                s.execute("alter table " + table + " add column added_" + System.nanoTime() + " text");
            }
            try (Statement s = c.createStatement()) {
                s.execute("update " + table + " set name = 'read after the migration' where id = 1");
            }
            int columns = read(c, sql);
            c.commit();
            return columns;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static int read(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getMetaData().getColumnCount();
            }
        }
    }

    private String table() throws SQLException {
        String table = "stale_plan_" + System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, credentials()); Statement s = c.createStatement()) {
            s.execute("create table " + table + " (id int primary key, name text)");
            s.execute("insert into " + table + " values (1, 'one')");
        }
        return table;
    }

    private Properties credentials() {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return p;
    }
}
