package io.qawk.orchestrator.hostile;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The one profile of the hostile-input, security and hawkBit-trouble tests (one Quarkus start for all of them):
 * hawkBit behind {@link HawkbitProxy} (tests call {@link HawkbitProxy#heal()} before they use it), short gateway timeouts and retries, a short HTTP idle timeout, a
 * recognisable database password, and the application log written to {@link #LOG_FILE} so a test can search it.
 */
public class HostileProfile implements QuarkusTestProfile {

    /** The service's hawkBit answer timeout in these tests. */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    /**
     * The HTTP idle timeout in these tests (production: see application.properties). Vert.x counts a request still
     * being worked on as idle: at 3 s the inventory sync after the hostile cases (4.5 s at a load average of 34) lost
     * its connection, and at 8 s an 11 s sync in {@code EngineFaultsEndToEndTest} did (2026-12-06). The sync now
     * answers 202 within half of it and goes on ({@code HawkbitTroubleTest}); other requests must stay under it.
     */
    public static final int IDLE_TIMEOUT_SECONDS = 8;
    /** One per test JVM (the same in every load of this class): two test JVMs never write into each other's log. */
    public static final Path LOG_FILE = Path.of("target", "hostile-tests", "application-" + ProcessHandle.current().pid()
            + ".log").toAbsolutePath();
    /** Embedded Postgres trusts local connections, so any password works; this one is easy to search for. */
    public static final String DB_PASSWORD = "db-secret-" + UUID.randomUUID();

    @Override
    public Map<String, String> getConfigOverrides() {
        // only the URL: user, password and tenant come from HawkbitTestResource. This class may be loaded apart
        // from the tests, so it must not start a hawkBit of its own; the tests point the proxy at theirs.
        Map<String, String> c = new HashMap<>();
        c.put("qawk.hawkbit.url", HawkbitProxy.url());
        c.put("qawk.hawkbit.connect-timeout", "1s");
        c.put("qawk.hawkbit.read-timeout", READ_TIMEOUT.toMillis() + "ms");
        c.put("qawk.hawkbit.max-retries", "1");
        c.put("qawk.hawkbit.retry-delay", "100ms");
        c.put("qawk.hawkbit.retry-max-delay", "300ms");
        c.put("qawk.hawkbit.circuit-breaker-threshold", "3");
        c.put("qawk.hawkbit.circuit-breaker-delay", "2s");
        c.put("quarkus.http.idle-timeout", IDLE_TIMEOUT_SECONDS + "s");
        c.put("quarkus.datasource.password", DB_PASSWORD);
        c.put("quarkus.log.file.enabled", "true");
        c.put("quarkus.log.file.path", LOG_FILE.toString());
        c.put("quarkus.log.file.level", "ALL");
        c.put("quarkus.log.category.\"io.qawk\".level", "DEBUG");
        return c;
    }
}
