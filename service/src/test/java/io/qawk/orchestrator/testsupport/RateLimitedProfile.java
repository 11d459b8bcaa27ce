package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.ForwardedForProxy;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * A hawkBit of its own with its DoS filter at a tight limit ({@link #MAX_READ} reads, {@link #MAX_WRITE} writes a
 * second per client), and the service pointed at it through a {@link ForwardedForProxy}, so that hawkBit takes the
 * service for a client on a public address (loopback is whitelisted) and limits it; the service's request budget is
 * set to that limit. The test fixtures (devices, sets, assignments made "by hand") reach hawkBit directly, whitelisted.
 * <p>
 * A profile rather than a test resource: its settings win over those of {@link HawkbitTestResource} (which points
 * every test at the shared hawkBit). This class may be loaded more than once (the test's and Quarkus' class
 * loaders), so hawkBit and the proxy are started once per JVM and found again through the system properties
 * {@code qawk.test.limited-hawkbit.*}, which the test reads too (the proxy's figures over HTTP); a shutdown hook
 * stops them.
 */
public class RateLimitedProfile implements QuarkusTestProfile {

    public static final int MAX_READ = 16;
    public static final int MAX_WRITE = 2;
    public static final String URL = "qawk.test.limited-hawkbit.url";
    public static final String USER = "qawk.test.limited-hawkbit.user";
    public static final String PASSWORD = "qawk.test.limited-hawkbit.password";
    public static final String PROXY = "qawk.test.limited-hawkbit.proxy";

    @Override
    public Map<String, String> getConfigOverrides() {
        start();
        return Map.of(
                "qawk.hawkbit.url", System.getProperty(PROXY),
                "qawk.hawkbit.user", System.getProperty(USER),
                "qawk.hawkbit.password", System.getProperty(PASSWORD),
                "qawk.hawkbit.budget.reads-per-second", String.valueOf(MAX_READ),
                "qawk.hawkbit.budget.writes-per-second", String.valueOf(MAX_WRITE));
    }

    private static void start() {
        synchronized (System.class) {
            if (System.getProperty(PROXY) != null) {
                return;
            }
            HawkbitServer hawkbit = HawkbitServer.builder(HawkbitServer.projectDir())
                    .arg("--hawkbit.server.security.dos.filter.enabled=true")
                    .arg("--hawkbit.server.security.dos.filter.max-read=" + MAX_READ)
                    .arg("--hawkbit.server.security.dos.filter.max-write=" + MAX_WRITE)
                    .start();
            ForwardedForProxy proxy = ForwardedForProxy.start(hawkbit.baseUrl());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                proxy.close();
                hawkbit.close();
            }, "limited-hawkbit-stop"));
            System.setProperty(URL, hawkbit.baseUrl());
            System.setProperty(USER, hawkbit.user());
            System.setProperty(PASSWORD, hawkbit.password());
            System.setProperty(PROXY, proxy.url());
        }
    }
}
