package io.qawk.orchestrator.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How the process benchmark splits the service's CPU by what its threads do, and judges a deployment's passes. */
class MachineCpuTest {

    private static final long S = 1_000_000_000L;

    @Test
    void eachThreadCountsItsOwnDifferenceAndWhatEndedThreadsSpentIsOther() {
        Map<String, Machine.ThreadCpu> before = Map.of(
                "10", new Machine.ThreadCpu("qawk-deployment", 5 * S),
                "11", new Machine.ThreadCpu("C2 CompilerThre", 7 * S),
                "12", new Machine.ThreadCpu("executor-thread", 9 * S), // ends before the second reading
                "13", new Machine.ThreadCpu("VM Thread", 1 * S));
        Map<String, Machine.ThreadCpu> after = Map.of(
                "10", new Machine.ThreadCpu("qawk-deployment", 8 * S),
                "11", new Machine.ThreadCpu("C2 CompilerThre", 9 * S),
                "14", new Machine.ThreadCpu("C1 CompilerThre", 1 * S), // begun meanwhile: counts whole
                "13", new Machine.ThreadCpu("VM Thread", 1 * S));

        Map<String, Long> work = Machine.cpuByWork(before, after, 10 * S);

        assertThat(work).containsExactly(Map.entry("engine", 3 * S), Map.entry("JIT", 3 * S), Map.entry("GC", 0L),
                Map.entry("other", 4 * S));
    }

    @Test
    void otherIsNeverBelowNothingWhenTheTotalWasReadBeforeTheThreads() {
        Map<String, Long> work = Machine.cpuByWork(Map.of(), Map.of("1", new Machine.ThreadCpu("qawk-deployment", 2 * S)),
                S);

        assertThat(work.get("engine")).isEqualTo(2 * S);
        assertThat(work.get("other")).isZero();
    }

    @Test
    void threadsAreNamedByWhatTheyDo() {
        assertThat(Machine.workOf("qawk-deployment")).isEqualTo("engine");
        assertThat(Machine.workOf("C2 CompilerThre")).isEqualTo("JIT");
        assertThat(Machine.workOf("Sweeper thread")).isEqualTo("JIT");
        assertThat(Machine.workOf("VM Thread")).isEqualTo("GC");
        assertThat(Machine.workOf("qawk-engine-haw")).isEqualTo("other");
        assertThat(Machine.workOf("vert.x-eventloo")).isEqualTo("other");
    }

    @Test
    void thisProcessesThreadsAreReadWithTheirNames() {
        Map<String, Machine.ThreadCpu> threads = Machine.cpuByThreadOf(ProcessHandle.current().pid());

        assertThat(threads).isNotEmpty();
        assertThat(threads.values()).extracting(Machine.ThreadCpu::name).contains("VM Thread");
        assertThat(threads.values()).allSatisfy(t -> assertThat(t.nanos()).isNotNegative());
    }

    @Test
    void aDeploymentsPassesAreMetAtASecondEachAndOtherwiseSayWhetherTheJitBoundsThem() {
        assertThat(ServiceProcessBenchmarkIT.verdict(10, 10 * S, 0)).isEqualTo("yes");
        assertThat(ServiceProcessBenchmarkIT.verdict(10, 20 * S, 12 * S))
                .isEqualTo("**no**: bound by the JIT compiling, 1.20 s per pass");
        assertThat(ServiceProcessBenchmarkIT.verdict(10, 20 * S, 5 * S)).isEqualTo("**no**");
        assertThat(ServiceProcessBenchmarkIT.verdict(0, 0, 0)).isEqualTo("**no**");
    }
}
