package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.query.Rsql;
import io.qawk.orchestrator.testkit.DeviceSimulator;
import io.qawk.orchestrator.testkit.DeviceSpec;
import io.qawk.orchestrator.testkit.HawkbitFixtures;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15's choice, measured against the real hawkBit: whether devices match a verification query, asked of hawkBit
 * ({@code controllerId=in=(…);(query)}, production's chunk of 500 ids and 6,000 encoded characters) or evaluated here
 * on attributes read device by device (hawkBit's target list carries no attributes). Prints requests and wall time
 * per way and size; both must agree. Not in the normal run ({@code ./mvnw -Pbenchmark}); figures in docs/design.md.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
@Tag("benchmark")
class VerificationQueryBenchmarkTest {

    static final String QUERY = "attribute.app_version==2.0";

    @Inject
    HawkbitGateway hawkbit;

    @Test
    void askingHawkbitInBulkAgainstReadingEveryDevicesAttributes() {
        HawkbitFixtures fixtures = new HawkbitFixtures(SharedHawkbit.get());
        try (DeviceSimulator devices = new DeviceSimulator(SharedHawkbit.get())) {
            devices.setMinPollInterval(Duration.ofMinutes(10)); // report once, then stay quiet
            int made = 0;
            for (int size : new int[]{20, 200, 1000}) {
                List<DeviceSpec> specs = new ArrayList<>();
                for (int i = made; i < size; i++) {
                    String id = "vqb-device-" + String.format("%05d", i);
                    specs.add(DeviceSpec.of(id, Map.of("app_version", i % 10 == 0 ? "1.9" : "2.0", "lane_state", "scoring")));
                }
                devices.addDevices(specs);
                made = size;
                int expected = size;
                await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() ->
                        fixtures.findTargetIds("controllerId==vqb-device-*;attribute.lane_state==scoring").size() == expected);
                List<String> ids = devices.controllerIds().stream().sorted().toList();
                for (int round = 1; round <= 3; round++) {
                    long t0 = System.nanoTime();
                    Set<String> inHawkbit = new HashSet<>();
                    int requests = 0;
                    for (List<String> chunk : HawkbitGateway.idChunks(ids, id -> id, 500,
                            6000 - HawkbitGateway.encodedLength(QUERY))) {
                        inHawkbit.addAll(hawkbit.matching(QUERY, chunk));
                        requests++;
                    }
                    long t1 = System.nanoTime();
                    Set<String> local = new HashSet<>();
                    for (String id : ids) {
                        if (matchesLocally(hawkbit.attributes(id))) {
                            local.add(id);
                        }
                    }
                    long t2 = System.nanoTime();
                    assertThat(local).isEqualTo(inHawkbit);
                    System.out.printf("[verify-bench] %d devices, round %d: in hawkBit %d request(s) %.0f ms;"
                                    + " locally %d requests %.0f ms%n", size, round, requests, (t1 - t0) / 1e6, ids.size(),
                            (t2 - t1) / 1e6);
                }
            }
        }
    }

    /** The query evaluated on the attributes read: one equality of one attribute, case-insensitive as in hawkBit. */
    private static boolean matchesLocally(Map<String, String> attributes) {
        Rsql.Comparison c = (Rsql.Comparison) Rsql.parse(QUERY);
        String key = c.selector().substring("attribute.".length());
        return c.values().get(0).equalsIgnoreCase(attributes.get(key));
    }
}
