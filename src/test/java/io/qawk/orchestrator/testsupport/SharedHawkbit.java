package io.qawk.orchestrator.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

import io.qawk.orchestrator.demo.HawkbitServer;

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

    /** The root project directory (surefire's {@code basedir}, else the working directory or a parent of it). */
    public static Path projectDir() {
        String basedir = System.getProperty("basedir");
        if (basedir != null && Files.isDirectory(Path.of(basedir, "src/it/hawkbit-server"))) {
            return Path.of(basedir).toAbsolutePath();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("src/it/hawkbit-server"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the project directory (with src/it/hawkbit-server)");
    }
}
