package io.qawk.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testsupport.Suites;

/**
 * Surefire runs the two suites only (service/pom.xml), each made of two of the groups {@link Suites} names: a test class
 * no group selects would never run, and one two select would run twice. Every test class in the sources must be in
 * exactly one group, the benchmarks in none.
 */
class SuitesTest {

    static final Path TESTS = Path.of("src/test/java");

    static final Pattern TEST_METHOD = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");

    @Test
    void everyTestClassIsInExactlyOneGroupAndNoBenchmarkInAny() {
        Pattern any = Pattern.compile(Suites.TEST_CLASS);
        Map<String, Pattern> named = new LinkedHashMap<>();
        named.put("deployment A-M", Pattern.compile(Suites.DEPLOYMENT_A_TO_M));
        named.put("deployment N-Z", Pattern.compile(Suites.DEPLOYMENT_N_TO_Z));
        named.put("screens", Pattern.compile(Suites.SCREENS));
        Pattern benchmark = Pattern.compile(Suites.BENCHMARKS);
        Map<String, List<String>> in = new LinkedHashMap<>();
        named.keySet().forEach(s -> in.put(s, new ArrayList<>()));
        in.put("other rooms", new ArrayList<>());
        List<String> inNeither = new ArrayList<>();
        List<String> inTwo = new ArrayList<>();
        List<String> benchmarks = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(TESTS)) {
            String source = SourceFiles.read(file);
            String name = TESTS.relativize(file).toString().replace(".java", "").replace('/', '.');
            String simpleName = file.getFileName().toString().replace(".java", "");
            if (!TEST_METHOD.matcher(source).find() || source.contains("abstract class " + simpleName)
                    || name.endsWith("IT")) {
                continue;
            }
            if (benchmark.matcher(name).matches()) {
                benchmarks.add(name);
                continue;
            }
            List<String> suites = named.entrySet().stream().filter(e -> e.getValue().matcher(name).matches())
                    .map(Map.Entry::getKey).toList();
            if (suites.size() > 1) {
                inTwo.add(name + " " + suites);
            } else if (suites.size() == 1) {
                in.get(suites.get(0)).add(name);
            } else if (any.matcher(name).matches()) {
                in.get("other rooms").add(name);
            } else {
                inNeither.add(name);
            }
        }
        assertThat(inNeither).as("test classes no group runs").isEmpty();
        assertThat(inTwo).as("test classes two groups run").isEmpty();
        assertThat(in.get("deployment A-M")).contains("io.qawk.orchestrator.deployment.EngineFaultsEndToEndTest",
                "io.qawk.orchestrator.deployment.plan.MendChoiceTest", "io.qawk.orchestrator.hostile.HawkbitTroubleTest");
        assertThat(in.get("deployment N-Z")).contains(
                "io.qawk.orchestrator.deployment.SystemDeploymentEndToEndTest",
                "io.qawk.orchestrator.deployment.plan.RunPlannerTest", "io.qawk.orchestrator.guard.GuardEndToEndTest")
                .doesNotContain("io.qawk.orchestrator.deployment.EngineFaultsEndToEndTest");
        assertThat(in.get("screens")).contains("io.qawk.orchestrator.ui.OrchestratorScreenTest");
        assertThat(in.get("other rooms")).contains("io.qawk.orchestrator.CodeMapTest",
                "io.qawk.orchestrator.SuitesTest", "io.qawk.orchestrator.channel.ChannelEndToEndTest")
                .doesNotContain("io.qawk.orchestrator.ui.OrchestratorScreenTest");
        assertThat(benchmarks).contains("io.qawk.orchestrator.bench.ScaleBenchmarkTest")
                .doesNotContain("io.qawk.orchestrator.bench.ScaleBenchmarkSmokeTest");
    }
}
