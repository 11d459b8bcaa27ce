package io.qawk.orchestrator.testkit.prometheus;

/**
 * One real Prometheus per test JVM, scraping one {@link MetricsEndpoint} every second: started by the first
 * {@link #get()}, stopped at JVM exit (the server's shutdown hook). For a Quarkus test profile that points
 * {@code qawk.prometheus.url} at it before the service starts, and the tests that then set the endpoint's values.
 * Tests sharing it use their own system names: series accumulate for the whole JVM.
 */
public final class SharedPrometheus {

    private static MetricsEndpoint endpoint;
    private static PrometheusServer server;

    private SharedPrometheus() {
    }

    /** The running Prometheus, started with its endpoint on first use. */
    public static synchronized PrometheusServer get() {
        if (server == null || !server.isAlive()) {
            if (server != null) {
                server.close();
            }
            if (endpoint == null) {
                endpoint = MetricsEndpoint.start();
            }
            server = PrometheusServer.start(endpoint.target());
        }
        return server;
    }

    /** The endpoint the shared Prometheus scrapes. */
    public static synchronized MetricsEndpoint endpoint() {
        get();
        return endpoint;
    }
}
