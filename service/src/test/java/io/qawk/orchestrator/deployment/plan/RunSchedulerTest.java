package io.qawk.orchestrator.deployment.plan;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.RollbackCause;
import io.qawk.orchestrator.deployment.model.RunState;

/**
 * Which pending systems start: maxParallel, maxFailed, byCentre, halts, blocked systems, take again and centres whose
 * maintenance window is closed, as tables.
 * Runs are in sequence, numbered from 1, each {@code STATE[/centre][+again]} (a run that went back went back for a
 * failure; {@code +again}: a person took it again); blocked and expected are run numbers.
 */
class RunSchedulerTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                                               | phase    | maxParallel | maxFailed | byCentre | halted | runs                                          | blocked | starts
            in sequence, up to maxParallel                       | RUNNING  | 2 | 0 | false | false | RUNNING PENDING PENDING PENDING               |         | 2
            every free slot is filled                            | RUNNING  | 3 | 0 | false | false | SUCCEEDED PENDING PENDING PENDING             |         | 2 3 4
            more slots than pending systems                      | RUNNING  | 9 | 0 | false | false | PENDING PENDING                               |         | 1 2
            a rollback under way takes a slot                    | RUNNING  | 1 | 0 | false | false | ROLLING_BACK PENDING                          |         |
            a system soaking takes a slot                        | RUNNING  | 1 | 0 | false | false | VERIFYING PENDING                             |         |
            finished systems take no slot                        | RUNNING  | 1 | 5 | false | false | SUCCEEDED ROLLED_BACK+again SKIPPED GIVEN_UP PENDING |  | 5
            nothing pending, nothing starts                      | RUNNING  | 5 | 5 | false | false | SUCCEEDED RUNNING                             |         |
            paused: nothing starts                               | PAUSED   | 5 | 5 | false | false | PENDING                                       |         |
            aborting: nothing starts                             | ABORTING | 5 | 5 | false | false | PENDING                                       |         |
            failed: nothing starts                               | FAILED   | 5 | 5 | false | false | PENDING                                       |         |
            draft: nothing starts                                | DRAFT    | 5 | 5 | false | false | PENDING                                       |         |
            finished: nothing starts                             | FINISHED | 5 | 5 | false | false | PENDING                                       |         |
            within the failure budget                            | RUNNING  | 5 | 2 | false | false | ROLLED_BACK PENDING+again PENDING ROLLED_BACK |         | 2 3
            at the failure budget                                | RUNNING  | 5 | 1 | false | false | ROLLED_BACK PENDING                           |         | 2
            over the budget only systems taken again start       | RUNNING  | 5 | 0 | false | false | ROLLED_BACK PENDING+again PENDING ROLLED_BACK |         | 2
            over the budget nothing else starts                  | RUNNING  | 5 | 0 | false | false | ROLLED_BACK PENDING ROLLED_BACK               |         |
            a failed rollback counts against the budget          | RUNNING  | 5 | 0 | false | false | ROLLBACK_FAILED PENDING                       |         |
            over the budget taken again still waits for a slot   | RUNNING  | 1 | 0 | false | false | ROLLED_BACK RUNNING PENDING+again             |         |
            halted: only systems taken again start               | RUNNING  | 5 | 5 | false | true  | SUCCEEDED PENDING PENDING+again               |         | 3
            not halted: every pending system                     | RUNNING  | 5 | 5 | false | false | SUCCEEDED PENDING PENDING+again               |         | 2 3
            halted and over the budget: taken again starts       | RUNNING  | 5 | 0 | false | true  | ROLLED_BACK PENDING+again PENDING             |         | 2
            halted with byCentre: taken again in a later centre  | RUNNING  | 5 | 5 | true  | true  | PENDING/c02 PENDING/c01+again                 |         | 2
            blocked systems are passed over                      | RUNNING  | 1 | 0 | false | false | PENDING PENDING PENDING                       | 1       | 2
            blocked systems take no slot                         | RUNNING  | 2 | 0 | false | false | PENDING PENDING PENDING                       | 1 2     | 3
            every system blocked                                 | RUNNING  | 3 | 0 | false | false | PENDING PENDING PENDING                       | 1 2 3   |
            a blocked taken-again system is passed over too      | RUNNING  | 5 | 0 | false | false | ROLLED_BACK PENDING+again PENDING+again       | 2       | 3
            byCentre: only the first centre not done             | RUNNING  | 5 | 0 | true  | false | SUCCEEDED/c02 RUNNING/c02 PENDING/c02 PENDING/c01 |     | 3
            byCentre: a centre done lets the next one start      | RUNNING  | 5 | 0 | true  | false | SUCCEEDED/c02 GIVEN_UP/c02 PENDING/c01        |         | 3
            byCentre: a centre under way holds the next one back | RUNNING  | 5 | 0 | true  | false | RUNNING/c02 PENDING/c01                       |         |
            byCentre: a centre still soaking holds the next back | RUNNING  | 5 | 0 | true  | false | VERIFYING/c02 PENDING/c01                     |         |
            byCentre: a blocked system keeps its centre open     | RUNNING  | 5 | 0 | true  | false | PENDING/c02 PENDING/c01                       | 1       |
            byCentre: maxParallel within the centre              | RUNNING  | 2 | 0 | true  | false | PENDING/c01 PENDING/c01 PENDING/c01 PENDING/c02 |       | 1 2
            without byCentre centres mix                         | RUNNING  | 5 | 0 | false | false | RUNNING/c02 PENDING/c01                       |         | 2
            byCentre: over the budget taken again only           | RUNNING  | 5 | 0 | true  | false | ROLLED_BACK/c01 PENDING/c01 PENDING/c02+again |         | 3
            """)
    void startsWhatTheSettingsAllow(String name, DeploymentPhase phase, int maxParallel, int maxFailed, boolean byCentre,
                                    boolean halted, String runs, String blocked, String starts) {
        List<DeploymentPhase.RunSummary> started = RunScheduler.toStart(phase, maxParallel, maxFailed, byCentre, halted,
                runs(runs), Set.copyOf(numbers(blocked)));
        assertThat(started.stream().map(DeploymentPhase.RunSummary::id).toList()).as(name).isEqualTo(numbers(starts));
    }

    /**
     * Closed centres: their pending systems do not start and take no slot; systems under way go on (and keep their
     * slots); with byCentre a closed centre holds the later ones back, because byCentre means one centre after the
     * other (docs/design.md says why).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                                                       | maxParallel | maxFailed | byCentre | runs                                                | closed  | starts
            a closed centre's systems do not start                       | 5 | 0 | false | PENDING/c01 PENDING/c02 PENDING/c01                 | c01     | 2
            a closed centre takes no slot: the open one's systems fill it | 2 | 0 | false | PENDING/c01 PENDING/c01 PENDING/c02 PENDING/c02     | c01     | 3 4
            systems under way in a closed centre keep their slots        | 2 | 0 | false | RUNNING/c01 ROLLING_BACK/c01 PENDING/c02            | c01     |
            ... and the free ones go to open centres                     | 3 | 0 | false | RUNNING/c01 ROLLING_BACK/c01 PENDING/c01 PENDING/c02 | c01    | 4
            every centre closed: nothing starts                          | 5 | 0 | false | PENDING/c01 PENDING/c02                             | c01 c02 |
            no centre closed: as without windows                         | 5 | 0 | false | PENDING/c01 PENDING/c02                             |         | 1 2
            a system taken again waits for its window too                | 5 | 5 | false | ROLLED_BACK/c01 PENDING/c01+again                   | c01     |
            over the budget: taken again in an open centre only          | 5 | 0 | false | ROLLED_BACK/c01 PENDING/c01+again PENDING/c02+again | c01     | 3
            byCentre: a closed first centre holds the later ones back    | 5 | 0 | true  | PENDING/c01 PENDING/c02                             | c01     |
            byCentre: a closed centre half done still holds them         | 5 | 0 | true  | SUCCEEDED/c01 PENDING/c01 PENDING/c02               | c01     |
            byCentre: under way past its window, it holds the next too   | 5 | 0 | true  | RUNNING/c01 PENDING/c02                             | c01     |
            byCentre: once the closed centre is done the next one starts | 5 | 0 | true  | SUCCEEDED/c01 GIVEN_UP/c01 PENDING/c02              | c01     | 3
            byCentre: the first centre open, it goes while later ones wait | 5 | 0 | true | PENDING/c01 PENDING/c02                            | c02     | 1
            """)
    void closedCentresWaitForTheirWindow(String name, int maxParallel, int maxFailed, boolean byCentre, String runs,
                                         String closed, String starts) {
        Set<String> shut = closed == null ? Set.of() : Set.of(closed.trim().split("\\s+"));
        List<DeploymentPhase.RunSummary> started = RunScheduler.toStart(DeploymentPhase.RUNNING, maxParallel, maxFailed,
                byCentre, false, runs(runs), Set.of(), shut::contains);
        assertThat(started.stream().map(DeploymentPhase.RunSummary::id).toList()).as(name).isEqualTo(numbers(starts));
    }

    @ParameterizedTest(name = "maxParallel {0}, runs [{1}] -> {2} slot(s)")
    @CsvSource(delimiter = '|', textBlock = """
            3 | RUNNING ROLLING_BACK SUCCEEDED PENDING | 1
            1 | RUNNING RUNNING                        | 0
            2 | RUNNING RUNNING RUNNING                | 0
            4 | PENDING PENDING ROLLED_BACK GIVEN_UP   | 4
            1 | SUCCEEDED                              | 1
            """)
    void theSlotsCountOnlySystemsUnderWay(int maxParallel, String runs, int slots) {
        assertThat(RunScheduler.slots(maxParallel, runs(runs))).isEqualTo(slots);
    }

    /** The convenience without halts or blocks is the full one with neither. */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', textBlock = """
            SUCCEEDED PENDING PENDING+again PENDING
            ROLLED_BACK PENDING+again PENDING
            PENDING/c02 PENDING/c01
            """)
    void withoutHaltsOrBlocksIsTheSame(String runs) {
        for (boolean byCentre : List.of(false, true)) {
            assertThat(RunScheduler.toStart(DeploymentPhase.RUNNING, 2, 0, byCentre, runs(runs)))
                    .isEqualTo(RunScheduler.toStart(DeploymentPhase.RUNNING, 2, 0, byCentre, false, runs(runs), Set.of()));
        }
    }

    /** Runs in sequence; each spec is {@code state[/group][+again]}, e.g. {@code PENDING/c02+again}. */
    static List<DeploymentPhase.RunSummary> runs(String specs) {
        List<DeploymentPhase.RunSummary> out = new ArrayList<>();
        String[] each = specs.trim().split("\\s+");
        for (int i = 0; i < each.length; i++) {
            String spec = each[i];
            boolean again = spec.endsWith("+again");
            spec = spec.replace("+again", "");
            String[] parts = spec.split("/");
            RunState state = RunState.valueOf(parts[0]);
            RollbackCause cause = state.wentBack() ? RollbackCause.FAILURE : null;
            out.add(new DeploymentPhase.RunSummary(i + 1, state, parts.length > 1 ? parts[1] : "c01", i, cause, again));
        }
        return out;
    }

    private static List<Long> numbers(String list) {
        return list == null || list.isBlank() ? List.of()
                : Arrays.stream(list.trim().split("\\s+")).map(Long::valueOf).collect(Collectors.toList());
    }

    /** A picked run starts when photographed with devices, is given up without any, and is left alone once not pending. */
    @ParameterizedTest
    @CsvSource({
            "PENDING, 4, START",
            "PENDING, 1, START",
            "PENDING, 0, GIVE_UP",
            "RUNNING, 4, NOT_PENDING",
            "SKIPPED, 0, NOT_PENDING",
    })
    void aPickedRunStartsOnlyWhilePendingAndWithDevicesPhotographed(RunState state, int devices, RunScheduler.Start expected) {
        assertThat(RunScheduler.start(state, devices)).isEqualTo(expected);
    }
}
