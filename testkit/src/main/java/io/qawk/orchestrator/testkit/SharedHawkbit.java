package io.qawk.orchestrator.testkit;

import java.nio.file.Files;
import java.nio.file.Path;


/**
 * One real hawkBit (0.3.0M7) per test JVM: started lazily by the first {@link #get()}, stopped by a JVM shutdown hook
 * (registered by {@link HawkbitServer}). Thread-safe. Tests sharing it must use their own controller ids and
 * distribution set names (e.g. with a per-test prefix): state accumulates for the whole JVM.
 */
public final class SharedHawkbit {

    private static volatile HawkbitServer server;

    private SharedHawkbit() {
    }

    /** The running hawkBit, started (and its jar built, if missing) on first use. */
    public static HawkbitServer get() {
        HawkbitServer s = server;
        if (s == null || !s.isAlive()) {
            synchronized (SharedHawkbit.class) {
                s = server;
                if (s == null || !s.isAlive()) {
                    if (s != null) {
                        s.close();
                    }
                    s = HawkbitServer.start(projectDir());
                    server = s;
                }
            }
        }
        return s;
    }

    /** The checkout's root, where the hawkBit server's sources are ({@link HawkbitServer#projectDir()}). */
    public static Path projectDir() {
        return HawkbitServer.projectDir();
    }
}
