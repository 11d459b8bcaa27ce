package io.qawk.orchestrator.guard;

import io.qawk.orchestrator.rules.CompatibilityRules;
import io.qawk.orchestrator.rules.RuleSpec;
import io.qawk.orchestrator.systemtype.GuardMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What a piece of hawkBit work would do to a system: which members move, what it would run, what it would break. */
class ThreatJudgeTest {

    static final List<String> COMPONENTS = List.of("lane", "terminal", "display");
    static final CompatibilityRules RULES = CompatibilityRules.of(List.of(new RuleSpec(
            Map.of("terminal", "term:[2,)"), Map.of("lane", "app:[2,)"), "fw 2 speaks only to app 2")), COMPONENTS);

    static SystemNow lane(String name, CompatibilityRules rules, String app, String termA, String termB) {
        return new SystemNow(1, "lane", name, rules, GuardMode.HOLD, List.of(
                new SystemNow.Member("lane", name + "-lane", app),
                new SystemNow.Member("terminal", name + "-term-a", termA),
                new SystemNow.Member("terminal", name + "-term-b", termB),
                new SystemNow.Member("display", name + "-display", "disp:1")));
    }

    static PendingWork rollout(String set, String... targets) {
        return new PendingWork(ThreatSource.ROLLOUT, 7, "terminals-2.0", "ready", 42, set, Set.of(targets));
    }

    @Test
    void aRolloutOfTerminalFirmware2OverALaneOnApp1BreaksTheRuleAndSaysWhy() {
        Optional<Threat> t = ThreatJudge.judge(rollout("term:2", "s1-term-a", "s1-term-b"),
                List.of(lane("s1", RULES, "app:1", "term:1", "term:1")));
        assertThat(t).isPresent();
        Threat.AtSystem s1 = t.get().systems().get(0);
        assertThat(s1.members()).containsExactly("s1-term-a", "s1-term-b");
        assertThat(s1.wouldRun()).isEqualTo(Map.of("lane", List.of("app:1"), "terminal", List.of("term:2"),
                "display", List.of("disp:1")));
        assertThat(s1.breaks().rule()).isZero();
        assertThat(s1.breaks().reason()).isEqualTo("s1-term-a runs term:2 with s1-lane on app:1"
                + " (rules[0] needs lane on app:[2,)) — fw 2 speaks only to app 2");
        assertThat(t.get().holdable()).isTrue();
    }

    @Test
    void theSystemsOfAThreatComeSortedByNameWhateverOrderTheyWereFoundIn() {
        List<SystemNow> found = List.of(lane("s10", RULES, "app:1", "term:1", "term:1"),
                lane("s3", RULES, "app:1", "term:1", "term:1"), lane("s1", RULES, "app:1", "term:1", "term:1"),
                lane("s2", RULES, "app:1", "term:1", "term:1"));
        Threat t = ThreatJudge.judge(rollout("term:2", "s10-term-a", "s3-term-a", "s1-term-a", "s2-term-a"), found)
                .orElseThrow();
        assertThat(t.systems()).extracting(Threat.AtSystem::system).containsExactly("s1", "s10", "s2", "s3");
    }

    @Test
    void aLaneOnApp2TakesTheSameRolloutWithoutBreakingAnything() {
        Threat t = ThreatJudge.judge(rollout("term:2", "s1-term-a", "s1-term-b"),
                List.of(lane("s1", RULES, "app:2", "term:1", "term:1"))).orElseThrow();
        assertThat(t.systems().get(0).breaks()).isNull();
        assertThat(t.holdable()).as("listed, never held").isFalse();
    }

    @Test
    void membersAlreadyOnTheSetDoNotMoveAndASystemWhoseMembersAllRunItIsNoThreat() {
        assertThat(ThreatJudge.judge(rollout("term:2", "s1-term-a", "s1-term-b"),
                List.of(lane("s1", RULES, "app:2", "term:2", "term:2")))).isEmpty();
        Threat t = ThreatJudge.judge(rollout("term:2", "s1-term-a", "s1-term-b"),
                List.of(lane("s1", RULES, "app:1", "term:2", "term:1"))).orElseThrow();
        assertThat(t.systems().get(0).members()).containsExactly("s1-term-b");
    }

    @Test
    void aSystemBrokenAlreadyByTheSameRuleIsNotBrokenAnewByWorkThatKeepsItSo() {
        Threat t = ThreatJudge.judge(rollout("term:2", "s1-term-b"),
                List.of(lane("s1", RULES, "app:1", "term:2", "term:1"))).orElseThrow();
        assertThat(t.systems().get(0).breaks()).isNull();
    }

    @Test
    void withoutRulesWorkThatMovesPartOfASystemLeavesItMixedAndWorkOverAllOfItDoesNot() {
        Threat part = ThreatJudge.judge(rollout("term:2", "s1-term-a"),
                List.of(lane("s1", CompatibilityRules.none(), "app:1", "term:1", "term:1"))).orElseThrow();
        assertThat(part.systems().get(0).breaks().rule()).isNull();
        assertThat(part.systems().get(0).breaks().reason()).isEqualTo("mixed: s1 would run term:2 on s1-term-a"
                + " while s1-lane, s1-term-b and s1-display stay where they are");

        SystemNow single = new SystemNow(2, "kiosk", "k1", CompatibilityRules.none(), GuardMode.HOLD,
                List.of(new SystemNow.Member("screen", "k1-screen", "kiosk:1")));
        Threat whole = ThreatJudge.judge(rollout("kiosk:2", "k1-screen"), List.of(single)).orElseThrow();
        assertThat(whole.systems().get(0).breaks()).isNull();
    }

    @Test
    void workOverNoMemberIsNoThreatAndOnlyTheSystemsItTouchesAreNamed() {
        assertThat(ThreatJudge.judge(rollout("term:2", "solo-1"), List.of(lane("s1", RULES, "app:1", "term:1",
                "term:1")))).isEmpty();
        Threat t = ThreatJudge.judge(rollout("term:2", "s2-term-a"), List.of(lane("s1", RULES, "app:1", "term:1",
                "term:1"), lane("s2", RULES, "app:1", "term:1", "term:1"))).orElseThrow();
        assertThat(t.systems()).extracting(Threat.AtSystem::system).containsExactly("s2");
    }

    @Test
    void aWatchingTypeIsNeverHeldThoughItsSystemBreaks() {
        SystemNow watched = new SystemNow(1, "lane", "s1", RULES, GuardMode.WATCH,
                lane("s1", RULES, "app:1", "term:1", "term:1").members());
        Threat t = ThreatJudge.judge(rollout("term:2", "s1-term-a"), List.of(watched)).orElseThrow();
        assertThat(t.systems().get(0).breaks()).isNotNull();
        assertThat(t.holdable()).isFalse();
        assertThat(t.heldSystems()).isEmpty();
    }

    @Test
    void aDeviceThatRunsNothingIsJudgedAsRunningNothing() {
        Threat t = ThreatJudge.judge(rollout("term:2", "s1-term-a", "s1-term-b"),
                List.of(lane("s1", RULES, null, null, null))).orElseThrow();
        assertThat(t.systems().get(0).wouldRun().get("lane")).containsExactly("none");
        assertThat(t.systems().get(0).breaks().reason()).contains("s1-lane on nothing");
    }
}
