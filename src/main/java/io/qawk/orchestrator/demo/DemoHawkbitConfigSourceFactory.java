package io.qawk.orchestrator.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Demo mode: starts a local hawkBit and points the service at it when no hawkBit is configured.
 * <p>
 * Active only when {@code qawk.demo.enabled} is true (the dev profile sets it) <em>and</em> {@code qawk.hawkbit.url}
 * is unset (also through {@code QAWK_HAWKBIT_URL}); otherwise, and while Quarkus builds the application, it does
 * nothing. When active it provides {@code qawk.hawkbit.url/user/password/tenant} and {@code qawk.demo.active=true} at
 * ordinal {@value #ORDINAL}, below system properties (400) and the environment (300), so an explicit setting always
 * wins. {@link DemoSetup} then fills the hawkBit with simulated devices.
 * <p>
 * One hawkBit per JVM: dev-mode live reload throws the application's class loader away and builds the configuration
 * again, so the running server is noted JVM-wide as a String (see {@link #SLOT}) and reused while its process is
 * alive. The shutdown hook that {@link HawkbitServer} registers stops it on JVM exit. The password is never logged.
 */
public class DemoHawkbitConfigSourceFactory implements ConfigSourceFactory {

    private static final Logger LOG = Logger.getLogger(DemoHawkbitConfigSourceFactory.class);

    static final String ENABLED = "qawk.demo.enabled";
    static final String PROJECT_DIR = "qawk.demo.project-dir";
    static final String ACTIVE = "qawk.demo.active";
    static final String HAWKBIT_URL = "qawk.hawkbit.url";
    static final int ORDINAL = 275;
    static final String SOURCE_NAME = "qawk-demo-hawkbit";

    /**
     * Key of the JVM-wide note of the running server. A {@link java.security.Security} property: JVM-wide like a
     * system property, but not part of the application's configuration (so not shown by config tooling) and a plain
     * String (system properties with other values break libraries that copy them, such as Narayana).
     */
    private static final String SLOT = "io.qawk.orchestrator.demo.running-hawkbit";
    private static final String LOCK_KEY = SLOT + ".lock";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!shouldStart(value(context, ENABLED), value(context, HAWKBIT_URL), ExecutionMode.current())) {
            return List.of();
        }
        Path projectDir = projectDir(value(context, PROJECT_DIR).orElse(null));
        Running hawkbit = startOnce(projectDir);
        Map<String, String> props = Map.of(
                HAWKBIT_URL, hawkbit.url(),
                "qawk.hawkbit.user", hawkbit.user(),
                "qawk.hawkbit.password", hawkbit.password(),
                "qawk.hawkbit.tenant", hawkbit.tenant(),
                ACTIVE, "true");
        return List.of(new PropertiesConfigSource(props, SOURCE_NAME, ORDINAL));
    }

    /**
     * Whether demo mode starts a hawkBit: demo enabled, no hawkBit URL configured, and the application is starting
     * (not being built: at build time Quarkus's execution mode is {@link ExecutionMode#UNSET}).
     */
    static boolean shouldStart(Optional<String> enabled, Optional<String> hawkbitUrl, ExecutionMode mode) {
        return enabled.map(v -> Boolean.parseBoolean(v.trim())).orElse(false)
                && hawkbitUrl.isEmpty()
                && mode != ExecutionMode.UNSET;
    }

    private static Optional<String> value(ConfigSourceContext context, String name) {
        ConfigValue v = context.getValue(name);
        return v == null || v.getValue() == null || v.getValue().isBlank()
                ? Optional.empty()
                : Optional.of(v.getValue().trim());
    }

    /**
     * The project with {@code src/it/hawkbit-server}: {@code configured}, else the working directory or the nearest
     * parent of it that has that folder (else the working directory, and the start explains what is missing).
     */
    static Path projectDir(String configured) {
        if (configured != null) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        Path cwd = Path.of("").toAbsolutePath().normalize();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("src/it/hawkbit-server"))
                    || Files.isRegularFile(HawkbitServer.jarPath(p))) {
                return p;
            }
        }
        return cwd;
    }

    // ------------------------------------------------------------------------------------- one per JVM ------

    /** Connection data of the running demo hawkBit. */
    record Running(String url, String user, String password, String tenant, long pid) {
        private static final String SEP = "\n";

        String encode() {
            return String.join(SEP, url, user, password, tenant, Long.toString(pid));
        }

        static Optional<Running> decode(String s) {
            if (s == null || s.isEmpty()) {
                return Optional.empty();
            }
            String[] p = s.split(SEP, -1);
            if (p.length != 5) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Running(p[0], p[1], p[2], p[3], Long.parseLong(p[4])));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        @Override
        public String toString() { // never the password
            return "hawkBit[" + url + ", user=" + user + ", pid=" + pid + "]";
        }
    }

    /** One monitor per JVM, whatever class loader loaded this class (a JDK object in a JDK map). */
    private static Object jvmLock() {
        // a String (see SLOT), but a fresh instance, not an interned literal somebody else might lock
        return System.getProperties().computeIfAbsent(LOCK_KEY, k -> new String("qawk demo hawkBit lock"));
    }

    private static Running startOnce(Path projectDir) {
        synchronized (jvmLock()) {
            Optional<Running> held = Running.decode(java.security.Security.getProperty(SLOT));
            if (held.isPresent() && isOurHawkbit(held.get().pid())) {
                LOG.infof("Demo mode: reusing the local %s", held.get());
                return held.get();
            }
            LOG.infof("Demo mode: no hawkBit configured (QAWK_HAWKBIT_URL), starting a local hawkBit from %s/src/it/"
                    + "hawkbit-server; the first run builds it from Maven Central and takes a few minutes", projectDir);
            HawkbitServer server;
            try {
                server = HawkbitServer.start(projectDir);
            } catch (RuntimeException e) {
                throw new IllegalStateException("Demo mode could not start a local hawkBit (" + e.getMessage()
                        + "). Point the service at a hawkBit with QAWK_HAWKBIT_URL, QAWK_HAWKBIT_USER and "
                        + "QAWK_HAWKBIT_PASSWORD, or turn demo mode off with -Dqawk.demo.enabled=false", e);
            }
            Running r = new Running(server.baseUrl(), server.user(), server.password(), server.tenant(), server.pid());
            java.security.Security.setProperty(SLOT, r.encode());
            LOG.infof("Demo mode: local %s is up, log %s", r, server.logFile());
            return r;
        }
    }

    /** The process is alive and is a hawkBit that this JVM started (not a recycled pid). */
    private static boolean isOurHawkbit(long pid) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.parent().map(ProcessHandle::pid).orElse(-1L) == ProcessHandle.current().pid())
                .flatMap(p -> p.info().commandLine())
                .map(cmd -> cmd.contains(HawkbitServer.JAR_NAME))
                .orElse(false);
    }
}
