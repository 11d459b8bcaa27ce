package io.qawk.orchestrator.testkit;

import java.nio.file.Path;
import java.security.Security;
import java.util.Optional;


/**
 * One real hawkBit (0.3.0M7) per test JVM: started lazily by the first {@link #get()}, stopped by a JVM shutdown hook
 * (registered by {@link HawkbitServer}). Thread-safe. Tests sharing it must use their own controller ids and
 * distribution set names (e.g. with a per-test prefix): state accumulates for the whole JVM.
 *
 * <p>"Per JVM", not per load of this class: Quarkus loads the test kit afresh for every application it starts (for
 * every test profile, and with surefire's {@code forkCount > 1} for every test class), so a static field alone would
 * start a hawkBit per application and keep each running until the JVM exits. The running server is therefore noted
 * JVM-wide ({@code "pid port user password log"} in a security property: in the JVM's memory only, like the field)
 * and a later load adopts it while its process lives.
 */
public final class SharedHawkbit {

    /** A String security property: JVM-wide, outside any application's configuration. */
    static final String JVM_NOTE = "io.qawk.orchestrator.testkit.shared-hawkbit";

    private static volatile HawkbitServer server;

    private SharedHawkbit() {
    }

    /** The running hawkBit, started (and its jar built, if missing) on first use in this JVM. */
    public static HawkbitServer get() {
        HawkbitServer s = server;
        if (s == null || !s.isAlive()) {
            synchronized (SharedHawkbit.class) {
                s = server;
                if (s == null || !s.isAlive()) {
                    if (s != null) {
                        s.close();
                    }
                    s = noted().orElse(null);
                    if (s == null) {
                        s = HawkbitServer.start(projectDir());
                        Security.setProperty(JVM_NOTE, s.pid() + " " + s.port() + " " + s.user() + " " + s.password()
                                + " " + s.logFile());
                    }
                    server = s;
                }
            }
        }
        return s;
    }

    /** The hawkBit an earlier load of this class started in this JVM, if it still runs. */
    private static Optional<HawkbitServer> noted() {
        String note = Security.getProperty(JVM_NOTE);
        if (note == null || note.isBlank()) {
            return Optional.empty();
        }
        String[] f = note.split(" ", 5);
        return HawkbitServer.adopt(Long.parseLong(f[0]), Integer.parseInt(f[1]), f[2], f[3], Path.of(f[4]));
    }

    /** The checkout's root, where the hawkBit server's sources are ({@link HawkbitServer#projectDir()}). */
    public static Path projectDir() {
        return HawkbitServer.projectDir();
    }
}
