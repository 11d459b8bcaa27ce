package io.qawk.orchestrator.testkit;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;

import java.lang.reflect.Method;
import java.time.Duration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

/**
 * A WireMock server between the service and the shared real hawkBit: by default it proxies every request, so the
 * service sees hawkBit as it is; {@link #trouble} switches the Management API to 503s, answers slower than the
 * service's read timeout, or connection resets, {@link #slowAssignmentAnswers} holds back hawkBit's answers to
 * assignments, and {@link #heal} restores plain proxying.
 * <p>
 * It is started once per test JVM; its port is kept in a system property, and it is steered through WireMock's admin
 * HTTP API, so test classes and the Quarkus profile may live in different class loaders.
 */
public final class HawkbitProxy {

    public static final String PORT_PROPERTY = "qawk.test.hawkbit-proxy-port";

    /** The three kinds of trouble. */
    public enum Trouble { SERVER_ERROR, SLOW, CONNECTION_RESET }

    private HawkbitProxy() {
    }

    /** Starts the proxy (once) and returns its base URL. */
    public static synchronized String url() {
        String port = System.getProperty(PORT_PROPERTY);
        if (port == null) {
            port = String.valueOf(startOnSystemClassLoader());
            System.setProperty(PORT_PROPERTY, port);
        }
        return "http://127.0.0.1:" + port;
    }

    /**
     * The server is JVM-wide but the Quarkus application that happens to start it first is not: each test application
     * loads the test kit (and WireMock) in a class loader of its own and closes it when the next one starts, after
     * which a server built on those classes answers 500 or nothing. So the server is built from the JVM's own class
     * loader, by reflection, with that loader as its threads' context loader, and outlives every application.
     */
    private static int startOnSystemClassLoader() {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(system);
        try {
            Class<?> configClass = Class.forName(
                    "com.github.tomakehurst.wiremock.core.WireMockConfiguration", true, system);
            Object config = configClass.getMethod("options").invoke(null);
            config = configClass.getMethod("bindAddress", String.class).invoke(config, "127.0.0.1");
            config = configClass.getMethod("dynamicPort").invoke(config);
            config = configClass.getMethod("containerThreads", Integer.class).invoke(config, 40);
            config = configClass.getMethod("asynchronousResponseEnabled", boolean.class).invoke(config, true);
            config = configClass.getMethod("asynchronousResponseThreads", int.class).invoke(config, 20);
            // nothing asks what it served: a journal of every request and answer of a whole suite only costs memory
            // and CPU (its forwarding took 62 s of one test JVM's CPU)
            config = configClass.getMethod("disableRequestJournal").invoke(config);
            Class<?> options = Class.forName("com.github.tomakehurst.wiremock.core.Options", true, system);
            Class<?> serverClass = Class.forName("com.github.tomakehurst.wiremock.WireMockServer", true, system);
            Object server = serverClass.getConstructor(options).newInstance(config);
            serverClass.getMethod("start").invoke(server);
            Method stop = serverClass.getMethod("stop");
            Thread hook = new Thread(() -> {
                try {
                    stop.invoke(server);
                } catch (ReflectiveOperationException e) {
                    // the JVM is exiting; the port goes with it
                }
            }, "hawkbit-proxy-stop");
            hook.setContextClassLoader(system);
            Runtime.getRuntime().addShutdownHook(hook);
            return (Integer) serverClass.getMethod("port").invoke(server);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot start the hawkBit proxy (WireMock) on the system class loader", e);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static WireMock client() {
        url();
        return new WireMock("127.0.0.1", Integer.parseInt(System.getProperty(PORT_PROPERTY)));
    }

    /** Plain proxying to the real hawkBit (of the caller's class loader), every other stub removed. */
    public static void heal() {
        WireMock c = client();
        c.resetMappings();
        c.register(any(anyUrl()).atPriority(10)
                .willReturn(aResponse().proxiedFrom(SharedHawkbit.get().baseUrl())));
    }

    /**
     * hawkBit stops answering, as a stopped process does (SIGSTOP): connections are taken, nothing comes back, every
     * request hangs until the caller gives up, until {@link #heal}.
     */
    public static void blackHole() {
        client().register(any(urlMatching("/.*")).atPriority(1)
                .willReturn(aResponse().withStatus(503).withFixedDelay((int) Duration.ofMinutes(10).toMillis())));
    }

    /**
     * hawkBit takes every bulk assignment ({@code POST /rest/v1/distributionsets/{id}/assignedTargets}, the one path
     * on 0.3.0M7 and on today's hawkBit) at once, and its answer reaches the caller {@code delay} later, as from a
     * busy hawkBit or a slow network, until {@link #heal}. WireMock forwards the request and reads hawkBit's answer
     * before it holds it back, so hawkBit has created its actions while the caller still waits: the window in which a
     * crash leaves an assignment hawkBit acted on but Qawk did not record. Keep {@code delay} under the service's read
     * timeout, or the slow answer becomes a failed call.
     */
    public static void slowAssignmentAnswers(Duration delay) {
        client().register(post(urlPathMatching("/rest/v1/distributionsets/[^/]+/assignedTargets")).atPriority(1)
                .willReturn(aResponse().proxiedFrom(SharedHawkbit.get().baseUrl())
                        .withFixedDelay((int) delay.toMillis())));
    }

    /**
     * hawkBit answers every Management API request {@code delay} late, as a hawkBit busy with thousands of polling
     * devices does, until {@link #heal}. Keep {@code delay} under the service's read timeout, or each answer becomes a
     * failed call.
     */
    public static void slowAnswers(Duration delay) {
        client().register(any(urlMatching("/rest/v1/.*")).atPriority(1)
                .willReturn(aResponse().proxiedFrom(SharedHawkbit.get().baseUrl())
                        .withFixedDelay((int) delay.toMillis())));
    }

    /** hawkBit's Management API misbehaves in this way until {@link #heal}. {@code readTimeout}: the service's. */
    public static void trouble(Trouble kind, Duration readTimeout) {
        WireMock c = client();
        var response = switch (kind) {
            case SERVER_ERROR -> aResponse().withStatus(503).withHeader("Content-Type", "application/json")
                    .withBody("{\"message\":\"hawkBit is down for maintenance\"}");
            case SLOW -> aResponse().proxiedFrom(SharedHawkbit.get().baseUrl())
                    .withFixedDelay((int) readTimeout.multipliedBy(2).toMillis());
            case CONNECTION_RESET -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER);
        };
        c.register(any(urlMatching("/rest/v1/.*")).atPriority(1).willReturn(response));
    }
}
