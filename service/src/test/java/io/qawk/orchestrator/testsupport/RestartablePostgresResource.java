package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.db.RestartablePostgres;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * The service under test on a Postgres of its own that the test stops and starts again
 * ({@link RestartablePostgres#control}), in {@code target/outage-postgres}.
 */
public class RestartablePostgresResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        String url = RestartablePostgres.start(Path.of(System.getProperty("basedir", "."), "target", "outage-postgres")
                .toAbsolutePath().normalize());
        return Map.of("quarkus.datasource.jdbc.url", url,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        RestartablePostgres.control("start"); // a failed test leaves it running for the application's shutdown
    }
}
