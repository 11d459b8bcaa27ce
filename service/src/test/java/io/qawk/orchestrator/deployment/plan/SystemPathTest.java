package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.plan.SystemPath.Device;
import io.qawk.orchestrator.deployment.plan.SystemPath.Verdict;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.RuleSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A system's real way to a manifest against "app 2 needs every device2 on fw 2" and "app 2 needs device3 on hmi 2":
 * device1 runs the app, two device2 run firmware, device3 an HMI. Each case: what the devices run, what the manifest
 * gives (and at which order), and whether the system is held (from which order, by which rule and device), clear, or
 * taken because the manifest mends it.
 */
class SystemPathTest {

    static final String WHY = "app 2 speaks the v2 terminal protocol";
    static final CompatibilityRules RULES = CompatibilityRules.of(List.of(
            new RuleSpec(Map.of("device1", "app:[2.0,)"), Map.of("device2", "device2-fw:[2.0,)"), WHY),
            new RuleSpec(Map.of("device1", "app:[2.0,)"), Map.of("device3", "hmi:[2.0,)"), "app 2 draws the v2 screen")),
            List.of("device1", "device2", "device3"));

    /** {@code held}: "rule@order by device" ("0@2 by d-c"), null for not held; {@code mends}: the rule mended. */
    record Case(String name, List<Device> devices, String held, Integer mends) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Device d(String id, String component, String runs, Integer order, String gets) {
        return new Device(id, component, runs, order, gets);
    }

    static Device untouched(String id, String component, String runs) {
        return new Device(id, component, runs, null, null);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                new Case("the product's way: firmware first, then the app", List.of(
                        d("d-a", "device1", "app:1.0", 2, "app:2.0"), d("d-b", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"),
                        d("d-c", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"), untouched("d-d", "device3", "hmi:2.0")),
                        null, null),
                new Case("an untouched device3 on an HMI the new app does not accept", List.of(
                        d("d-a", "device1", "app:1.0", 2, "app:2.0"), d("d-b", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"),
                        untouched("d-d", "device3", "hmi:1.0")),
                        "1@2 by d-d", null),
                new Case("a device2 already on the set the manifest gives, one the new app does not accept", List.of(
                        d("d-a", "device1", "app:1.0", 2, "app:2.0"), d("d-b", "device2", "device2-fw:2.0", 1, "device2-fw:2.0"),
                        d("d-c", "device2", "device2-fw:1.5", 1, "device2-fw:1.5"), untouched("d-d", "device3", "hmi:2.0")),
                        "0@2 by d-c", null),
                new Case("equal orders: a device2 may finish after the app", List.of(
                        d("d-a", "device1", "app:1.0", 1, "app:2.0"), d("d-b", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"),
                        untouched("d-d", "device3", "hmi:2.0")),
                        "0@1 by d-b", null),
                new Case("a device2 that runs nothing breaks a triggered rule", List.of(
                        d("d-a", "device1", "app:1.0", 2, "app:2.0"), untouched("d-b", "device2", null),
                        untouched("d-d", "device3", "hmi:2.0")),
                        "0@2 by d-b", null),
                new Case("nothing triggers: a manifest that keeps the old app is clear whatever the rest runs", List.of(
                        d("d-a", "device1", "app:1.0", 1, "app:1.5"), untouched("d-b", "device2", "device2-fw:0.9"),
                        untouched("d-d", "device3", "hmi:1.0")),
                        null, null),
                new Case("going down: the app back to 1 first, then the firmware", List.of(
                        d("d-a", "device1", "app:2.0", 1, "app:1.0"), d("d-b", "device2", "device2-fw:2.0", 2, "device2-fw:1.0"),
                        untouched("d-d", "device3", "hmi:2.0")),
                        null, null),
                new Case("going down in the wrong order", List.of(
                        d("d-a", "device1", "app:2.0", 2, "app:1.0"), d("d-b", "device2", "device2-fw:2.0", 1, "device2-fw:1.0"),
                        untouched("d-d", "device3", "hmi:2.0")),
                        "0@1 by d-b", null),
                new Case("drift mended by the first order that changes something", List.of(
                        d("d-a", "device1", "app:2.0", 2, "app:2.0"), d("d-b", "device2", "device2-fw:2.0", 1, "device2-fw:2.0"),
                        d("d-c", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"), untouched("d-d", "device3", "hmi:2.0")),
                        null, 0),
                new Case("drift the manifest leaves as it is", List.of(
                        d("d-a", "device1", "app:2.0", 1, "app:2.1"), d("d-b", "device2", "device2-fw:1.0", 1, "device2-fw:1.0"),
                        untouched("d-d", "device3", "hmi:2.0")),
                        "0@1 by d-b", null),
                new Case("drift mended only at a later order is held", List.of(
                        d("d-d", "device3", "hmi:2.0", 1, "hmi:2.1"), d("d-c", "device2", "device2-fw:1.0", 2, "device2-fw:2.0"),
                        untouched("d-a", "device1", "app:2.0")),
                        "0@2 by d-c", null),
                new Case("drift mended while another rule breaks on the way", List.of(
                        d("d-c", "device2", "device2-fw:1.0", 1, "device2-fw:2.0"), d("d-d", "device3", "hmi:2.0", 1, "hmi:1.0"),
                        untouched("d-a", "device1", "app:2.0")),
                        "1@1 by d-d", null),
                new Case("drift and nothing to change: held as it stands", List.of(
                        d("d-a", "device1", "app:2.0", 1, "app:2.0"), untouched("d-b", "device2", "device2-fw:1.0")),
                        "0@null by d-b", null),
                new Case("already on the manifest and allowed", List.of(
                        d("d-a", "device1", "app:2.0", 1, "app:2.0"), untouched("d-b", "device2", "device2-fw:2.0")),
                        null, null)
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachWayIsJudgedFromWhatTheSystemRunsNow(Case c) {
        Verdict v = SystemPath.judge(RULES, c.devices());

        if (c.held() == null) {
            assertThat(v.isHeld()).as("held: %s", v.heldWords("s")).isFalse();
        } else {
            assertThat(v.isHeld()).isTrue();
            assertThat(v.held().rule() + "@" + v.order() + " by " + v.held().offender().device()).isEqualTo(c.held());
        }
        assertThat(v.mends() == null ? null : v.mends().rule()).isEqualTo(c.mends());
    }

    @Test
    void theReasonNamesTheSystemTheDeviceItsSetAndTheRule() {
        Verdict v = SystemPath.judge(RULES, List.of(d("device-07-a", "device1", "app:1.0", 2, "app:2.0"),
                untouched("device-07-c", "device2", "device2-fw:1.0")));

        assertThat(v.heldWords("device-07")).isEqualTo("held: device-07 would run app:2.0 with device-07-c on "
                + "device2-fw:1.0 at order 2 (rules[0] needs device2 on device2-fw:[2.0,)) — " + WHY);
    }

    @Test
    void aMendedSystemSaysWhatItBreaksNow() {
        Verdict v = SystemPath.judge(RULES, List.of(d("d-a", "device1", "app:2.0", 2, "app:2.0"),
                d("d-c", "device2", "device2-fw:1.0", 1, "device2-fw:2.0")));

        assertThat(v.isHeld()).isFalse();
        assertThat(v.mendsWords()).isEqualTo("breaks a rule now and this manifest mends it: d-a runs app:2.0 with d-c on "
                + "device2-fw:1.0 (rules[0] needs device2 on device2-fw:[2.0,)) — " + WHY);
    }

    @Test
    void withoutRulesEveryWayIsClear() {
        assertThat(SystemPath.judge(CompatibilityRules.none(), List.of(untouched("d-b", "device2", null))))
                .isEqualTo(Verdict.CLEAR);
    }
}
