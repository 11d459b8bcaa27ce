package io.qawk.orchestrator.common;

import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;

/**
 * Refuses to start without a database, before anything else starts, saying which variable to set. The service
 * carries no database of its own: its Postgres is the store and the referee between replicas, so it is configured
 * ({@code QAWK_DB_URL}), never improvised in a home directory. The test profile is left to the tests (the test kit
 * points them at an embedded Postgres); the demo ({@code ./mvnw -Pdemo}) runs the service with one.
 * <p>
 * A config source factory runs while the configuration is assembled, so the refusal comes before the datasource,
 * Flyway and Hibernate would fail with their own, longer messages that do not name our variable.
 */
public class DatabaseRequired implements ConfigSourceFactory {

    static final String URL = "quarkus.datasource.jdbc.url";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        // Quarkus also reads the configuration while it builds the application: no database is needed for that.
        if (ExecutionMode.current() == ExecutionMode.UNSET) {
            return List.of();
        }
        Optional<String> problem = problem(value(context, URL), context.getProfiles());
        if (problem.isPresent()) {
            throw new IllegalStateException(problem.get());
        }
        return List.of();
    }

    /** Why the service may not start with this database URL in these profiles; empty when it may. */
    public static Optional<String> problem(String jdbcUrl, List<String> profiles) {
        if (profiles.contains("test")) {
            return Optional.empty();
        }
        if (jdbcUrl == null || jdbcUrl.isBlank()) {
            return Optional.of("No database is configured: set QAWK_DB_URL to a Postgres, e.g. "
                    + "jdbc:postgresql://db.example.com:5432/qawk, with QAWK_DB_USER and QAWK_DB_PASSWORD "
                    + "(docs/install.md). To try Qawk without one, run the demo: ./mvnw -Pdemo (README.md)");
        }
        if (!jdbcUrl.strip().startsWith("jdbc:postgresql:")) {
            return Optional.of("QAWK_DB_URL must be a Postgres JDBC URL (jdbc:postgresql://host:5432/db); "
                    + "it starts with something else");
        }
        return Optional.empty();
    }

    private static String value(ConfigSourceContext context, String name) {
        ConfigValue v = context.getValue(name);
        return v == null ? null : v.getValue();
    }
}
