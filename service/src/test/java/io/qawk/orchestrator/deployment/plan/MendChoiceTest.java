package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.deployment.plan.MendChoice.Candidate;
import io.qawk.orchestrator.deployment.plan.MendChoice.Choice;
import io.qawk.orchestrator.deployment.plan.SystemPath.Device;
import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.RuleSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which manifest mends a broken lane under "app 2 needs every terminal on term 2": the lane runs app 2, one terminal
 * was given term 1 by hand. The manifest it last ran is taken when it mends it; otherwise the one that mends it and
 * changes fewest devices; none when no manifest mends it.
 */
class MendChoiceTest {

    static final CompatibilityRules RULES = CompatibilityRules.of(List.of(
                    new RuleSpec(Map.of("lane", "app:[2,)"), Map.of("terminal", "term:[2,)"), "app 2 speaks the v2 terminal protocol")),
            List.of("lane", "terminal", "display"));

    /** What the broken lane runs now, device by device. */
    static final Map<String, String> NOW = Map.of("lane", "app:2", "term-a", "term:2", "term-b", "term:1",
            "display", "disp:2");

    /** The lane's way to a manifest giving each component a set at an order ({@code null}: not in the manifest). */
    static Candidate manifest(long id, String app, int appOrder, String term, int termOrder, String disp) {
        return new Candidate(id, "m" + id, List.of(
                device("lane", "lane", app, appOrder),
                device("term-a", "terminal", term, termOrder),
                device("term-b", "terminal", term, termOrder),
                device("display", "display", disp, 1)));
    }

    static Device device(String id, String component, String gets, int order) {
        return gets == null ? new Device(id, component, NOW.get(id), null, null)
                : new Device(id, component, NOW.get(id), order, gets);
    }

    static final Candidate V2 = manifest(2, "app:2", 2, "term:2", 1, "disp:2");      // term-b only
    static final Candidate V1 = manifest(1, "app:1", 1, "term:1", 2, "disp:1");      // lane, term-a, display
    static final Candidate V3 = manifest(3, "app:3", 2, "term:3", 1, "disp:3");      // all four
    static final Candidate APP_ONLY = manifest(4, "app:3", 2, null, 1, "disp:2");    // leaves the terminals
    static final Candidate BACKWARDS = manifest(5, "app:3", 1, "term:3", 2, "disp:3"); // the fix only at order 2

    static Optional<Choice> choose(Long lastRun, Candidate... candidates) {
        return MendChoice.choose(RULES, lastRun, List.of(candidates));
    }

    @Test
    void theManifestItLastRanIsTakenWhenItMendsIt() {
        Choice c = choose(3L, V2, V1, V3).orElseThrow();

        assertThat(c.manifest().manifestId()).isEqualTo(3);
        assertThat(c.lastRun()).isTrue();
        assertThat(c.verdict().mends().rule()).isZero();
    }

    @Test
    void withoutALastRunTheManifestChangingFewestDevicesIsTaken() {
        Choice c = choose(null, V1, V3, V2).orElseThrow();

        assertThat(c.manifest().manifestId()).isEqualTo(2);
        assertThat(c.lastRun()).isFalse();
        assertThat(c.verdict().mendsWords()).startsWith("breaks a rule now and this manifest mends it: ");
    }

    @Test
    void aLastRunThatDoesNotMendItGivesWayToTheNearestThatDoes() {
        assertThat(choose(4L, APP_ONLY, V3, V1).map(c -> c.manifest().manifestId())).contains(1L);
        assertThat(choose(5L, BACKWARDS, V3).map(c -> c.manifest().manifestId())).contains(3L);
    }

    @Test
    void aLastRunThatIsNoManifestAnyMoreIsPassedOver() {
        assertThat(choose(99L, V3, V1).map(c -> c.manifest().manifestId())).contains(1L);
    }

    @Test
    void equallyNearManifestsGoToTheNewest() {
        Candidate v2Again = new Candidate(7, "m7", V2.way());

        assertThat(choose(null, V2, v2Again).map(c -> c.manifest().manifestId())).contains(7L);
    }

    @Test
    void noneWhenNoManifestMendsIt() {
        assertThat(choose(4L, APP_ONLY, BACKWARDS)).isEmpty();
        assertThat(choose(null)).isEmpty();
    }

    @Test
    void aSystemThatBreaksNothingIsNotMended() {
        Candidate fine = new Candidate(8, "m8", List.of(new Device("lane", "lane", "app:1", 1, "app:2"),
                new Device("term-a", "terminal", "term:2", 1, "term:2")));

        // the way is clear, but there is nothing to mend: the verdict names no rule mended
        assertThat(choose(8L, fine)).isEmpty();
    }
}
