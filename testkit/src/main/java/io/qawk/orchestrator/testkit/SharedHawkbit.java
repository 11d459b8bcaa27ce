package io.qawk.orchestrator.testkit;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

import io.qawk.orchestrator.testkit.HawkbitServer.Database;

/**
 * One real hawkBit (0.3.0M7) per test JVM and database: started lazily by the first {@link #get()}, stopped by a JVM
 * shutdown hook (registered by {@link HawkbitServer}). Thread-safe. Tests sharing it must use their own controller ids
 * and distribution set names (e.g. with a per-test prefix): state accumulates for the whole JVM.
 * <p>
 * {@link #get()} runs hawkBit on the database named by the system property {@value #DATABASE_PROPERTY} ({@code h2},
 * the default and the test suite's, or {@code postgres}); {@link #get(Database)} on the one given, whatever the
 * property says (the benchmarks ask for Postgres).
 */
public final class SharedHawkbit {

    /** System property choosing the database of {@link #get()}: {@code h2} (default) or {@code postgres}. */
    public static final String DATABASE_PROPERTY = "qawk.hawkbit.database";

    private static final Map<Database, HawkbitServer> SERVERS = new EnumMap<>(Database.class);

    private SharedHawkbit() {
    }

    /** The running hawkBit on the configured database, started (and its jar built, if missing) on first use. */
    public static HawkbitServer get() {
        return get(configuredDatabase());
    }

    /** The running hawkBit on {@code database}, started (and its jar built, if missing) on first use. */
    public static synchronized HawkbitServer get(Database database) {
        HawkbitServer s = SERVERS.get(database);
        if (s == null || !s.isAlive()) {
            if (s != null) {
                s.close();
            }
            s = HawkbitServer.builder(projectDir()).database(database).start();
            SERVERS.put(database, s);
        }
        return s;
    }

    /** The database {@link #get()} uses: {@value #DATABASE_PROPERTY}, else H2. */
    public static Database configuredDatabase() {
        return Database.parse(System.getProperty(DATABASE_PROPERTY));
    }

    /** The checkout's root, where the hawkBit server's sources are ({@link HawkbitServer#projectDir()}). */
    public static Path projectDir() {
        return HawkbitServer.projectDir();
    }
}
