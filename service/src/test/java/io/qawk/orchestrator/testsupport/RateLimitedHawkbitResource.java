package io.qawk.orchestrator.testsupport;

import io.qawk.orchestrator.testkit.ForwardedForProxy;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * A hawkBit of its own with its DoS filter at a tight limit ({@link #MAX_READ} reads, {@link #MAX_WRITE} writes a
 * second per client), and the service pointed at it through a {@link ForwardedForProxy}, so that hawkBit takes the
 * service for a client on a public address (loopback is whitelisted) and limits it; the service's request budget is
 * set to that limit. The test fixtures (devices, sets, assignments made "by hand") reach hawkBit directly, whitelisted.
 * <p>
 * The test class may live in another class loader than this resource: it finds hawkBit and the proxy through the
 * system properties {@code qawk.test.limited-hawkbit.*} (the proxy's figures over HTTP).
 */
public class RateLimitedHawkbitResource implements QuarkusTestResourceLifecycleManager {

    public static final int MAX_READ = 16;
    public static final int MAX_WRITE = 2;
    public static final String URL = "qawk.test.limited-hawkbit.url";
    public static final String USER = "qawk.test.limited-hawkbit.user";
    public static final String PASSWORD = "qawk.test.limited-hawkbit.password";
    public static final String PROXY = "qawk.test.limited-hawkbit.proxy";

    private HawkbitServer hawkbit;
    private ForwardedForProxy proxy;

    @Override
    public Map<String, String> start() {
        hawkbit = HawkbitServer.builder(HawkbitServer.projectDir())
                .arg("--hawkbit.server.security.dos.filter.enabled=true")
                .arg("--hawkbit.server.security.dos.filter.max-read=" + MAX_READ)
                .arg("--hawkbit.server.security.dos.filter.max-write=" + MAX_WRITE)
                .start();
        proxy = ForwardedForProxy.start(hawkbit.baseUrl());
        System.setProperty(URL, hawkbit.baseUrl());
        System.setProperty(USER, hawkbit.user());
        System.setProperty(PASSWORD, hawkbit.password());
        System.setProperty(PROXY, proxy.url());
        return Map.of(
                "qawk.hawkbit.url", proxy.url(),
                "qawk.hawkbit.user", hawkbit.user(),
                "qawk.hawkbit.password", hawkbit.password(),
                "qawk.hawkbit.tenant", hawkbit.tenant(),
                "qawk.hawkbit.budget.reads-per-second", String.valueOf(MAX_READ),
                "qawk.hawkbit.budget.writes-per-second", String.valueOf(MAX_WRITE));
    }

    @Override
    public void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (hawkbit != null) {
            hawkbit.close();
        }
        System.clearProperty(PASSWORD);
    }
}
