package io.qawk.orchestrator.hawkbit;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import java.util.List;
import java.util.stream.Collectors;

import java.util.ArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import com.github.tomakehurst.wiremock.WireMockServer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Base of the gateway tests: a WireMock "hawkBit" on 127.0.0.1 and a dynamic port, reset before each test. The
 * subclasses are {@code @QuarkusTest}s of the default test profile: the REST client and Fault Tolerance need the
 * Quarkus runtime, the gateways themselves are built here, each with the settings its test needs. The application's
 * own gateway, engine and meter registry are not involved (each test builds its gateways and a registry of its own),
 * so they share the running application of the other tests instead of restarting Quarkus into a profile of their own.
 */
abstract class WireMockHawkbit {

    static WireMockServer hawkbit;
    SimpleMeterRegistry registry;
    private final List<HawkbitGateway> built = new ArrayList<>();

    @BeforeAll
    static void startHawkbit() {
        hawkbit = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        hawkbit.start();
    }

    @AfterAll
    static void stopHawkbit() {
        hawkbit.stop();
    }

    @BeforeEach
    void resetHawkbit() {
        hawkbit.resetAll();
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void closeGateways() {
        built.forEach(HawkbitGateway::close);
        built.clear();
    }

    static TestConfig config() {
        return TestConfig.forUrl("http://127.0.0.1:" + hawkbit.port() + "/");
    }

    HawkbitGateway gateway() {
        return gateway(config());
    }

    HawkbitGateway gateway(HawkbitConfig config) {
        return track(new HawkbitGateway(config, registry));
    }

    HawkbitGateway track(HawkbitGateway gateway) {
        built.add(gateway);
        return gateway;
    }

    static String page(List<String> items, long total) {
        return "{\"content\":[" + String.join(",", items) + "],\"total\":" + total + ",\"size\":" + items.size()
                + "}";
    }

    static String target(String controllerId) {
        return "{\"controllerId\":\"" + controllerId + "\",\"name\":\"" + controllerId + "\","
                + "\"updateStatus\":\"in_sync\",\"createdAt\":1700000000000,"
                + "\"lastControllerRequestAt\":1700000100000,\"installedAt\":1700000200000,"
                + "\"_links\":{\"self\":{\"href\":\"http://h/rest/v1/targets/" + controllerId + "\"}}}";
    }

    static String targets(List<String> controllerIds, long total) {
        return page(controllerIds.stream().map(WireMockHawkbit::target).collect(Collectors.toList()), total);
    }

    static String set(long id, String name, String version, boolean complete) {
        return "{\"id\":" + id + ",\"name\":\"" + name + "\",\"version\":\"" + version + "\",\"complete\":"
                + complete + ",\"createdAt\":1700000000000,\"type\":\"app\"}";
    }
}
