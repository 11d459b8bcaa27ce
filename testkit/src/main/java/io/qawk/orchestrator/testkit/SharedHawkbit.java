package io.qawk.orchestrator.testkit;

import java.nio.file.Path;
import java.security.Security;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import io.qawk.orchestrator.testkit.HawkbitServer.Database;

/**
 * One real hawkBit (0.3.0M7) per test JVM and database: started lazily by the first {@link #get()}, stopped by a JVM
 * shutdown hook (registered by {@link HawkbitServer}). Thread-safe. Tests sharing it must use their own controller ids
 * and distribution set names (e.g. with a per-test prefix): state accumulates for the whole JVM.
 * <p>
 * {@link #get()} runs hawkBit on the database named by the system property {@value #DATABASE_PROPERTY} ({@code h2},
 * the default and the test suite's, or {@code postgres}); {@link #get(Database)} on the one given, whatever the
 * property says (the benchmarks ask for Postgres).
 *
 * <p>"Per JVM", not per load of this class: Quarkus loads the test kit afresh for every application it starts (for
 * every test profile, and with surefire's {@code forkCount > 1} for every test class), so a static field alone would
 * start a hawkBit per application and keep each running until the JVM exits. The running hawkBit on H2 (the test
 * suite's) is therefore noted JVM-wide ({@code "pid port user password log"} in a security property: in the JVM's
 * memory only, like the field) and a later load adopts it while its process lives. One on Postgres is not adopted:
 * its database belongs to the load that started it (the benchmarks start one application).
 */
public final class SharedHawkbit {

    /** System property choosing the database of {@link #get()}: {@code h2} (default) or {@code postgres}; outside {@code qawk.hawkbit.*}, which the service claims as its own configuration. */
    public static final String DATABASE_PROPERTY = "qawk.testkit.hawkbit-database";

    /** A String security property: JVM-wide, outside any application's configuration. */
    static final String JVM_NOTE = "io.qawk.orchestrator.testkit.shared-hawkbit";

    private static final Map<Database, HawkbitServer> SERVERS = new EnumMap<>(Database.class);

    private SharedHawkbit() {
    }

    /** The running hawkBit on the configured database, started (and its jar built, if missing) on first use. */
    public static HawkbitServer get() {
        return get(configuredDatabase());
    }

    /** The running hawkBit on {@code database}, started (and its jar built, if missing) on first use in this JVM. */
    public static synchronized HawkbitServer get(Database database) {
        HawkbitServer s = SERVERS.get(database);
        if (s == null || !s.isAlive()) {
            if (s != null) {
                s.close();
            }
            s = database == Database.H2 ? noted().orElse(null) : null;
            if (s == null) {
                s = HawkbitServer.builder(projectDir()).database(database).start();
                if (database == Database.H2) {
                    Security.setProperty(JVM_NOTE, s.pid() + " " + s.port() + " " + s.user() + " " + s.password()
                            + " " + s.logFile());
                }
            }
            SERVERS.put(database, s);
        }
        return s;
    }

    /** The hawkBit on H2 an earlier load of this class started in this JVM, if it still runs. */
    private static Optional<HawkbitServer> noted() {
        String note = Security.getProperty(JVM_NOTE);
        if (note == null || note.isBlank()) {
            return Optional.empty();
        }
        String[] f = note.split(" ", 5);
        return HawkbitServer.adopt(Long.parseLong(f[0]), Integer.parseInt(f[1]), f[2], f[3], Path.of(f[4]));
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
