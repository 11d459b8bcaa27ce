package io.qawk.orchestrator.testkit.db;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.List;
import java.util.Map;

/**
 * Points the datasource at an embedded Postgres when no database is configured.
 *
 * <p>Runs while the runtime configuration is assembled, so the datasource, Flyway and Hibernate
 * see an ordinary JDBC URL. With {@code quarkus.datasource.jdbc.url} set, it does nothing.
 */
public class EmbeddedPostgresConfigSourceFactory implements ConfigSourceFactory {

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        // Quarkus also reads the configuration while it builds the application (dev mode: in the same JVM);
        // the database is for the running application only.
        if (io.quarkus.runtime.ExecutionMode.current() == io.quarkus.runtime.ExecutionMode.UNSET
                || isSet(context.getValue("quarkus.datasource.jdbc.url"))
                || !enabled(context.getValue("qawk.embedded-db.enabled"))) {
            return List.of();
        }
        ConfigValue dir = context.getValue("qawk.embedded-db.dir");
        String dataDir = isSet(dir) ? dir.getValue() : EmbeddedDatabase.defaultDataDir();
        ConfigValue ephemeral = context.getValue("qawk.embedded-db.ephemeral");
        EmbeddedDatabase db = isSet(ephemeral) && Boolean.parseBoolean(ephemeral.getValue().trim())
                ? EmbeddedDatabase.startEphemeral(dataDir)
                : EmbeddedDatabase.start(dataDir);
        Map<String, String> props = Map.of(
                "quarkus.datasource.jdbc.url", db.jdbcUrl(),
                "quarkus.datasource.username", EmbeddedDatabase.USER,
                "quarkus.datasource.password", EmbeddedDatabase.USER);
        // Below system properties and env (300/400) so an explicit setting always wins.
        return List.of(new PropertiesConfigSource(props, "qawk-embedded-postgres", 275));
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }

    private static boolean enabled(ConfigValue value) {
        return !isSet(value) || Boolean.parseBoolean(value.getValue().trim());
    }
}
