package io.qawk.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testsupport.Suites;

/**
 * Surefire runs the two suites only (service/pom.xml): a test class neither suite selects would never run, and one both
 * select would run twice. Every test class in the sources must be in exactly one, the benchmarks in none.
 */
class SuitesTest {

    static final Path TESTS = Path.of("src/test/java");

    static final Pattern TEST_METHOD = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");

    @Test
    void everyTestClassIsInExactlyOneSuiteAndNoBenchmarkInEither() {
        Pattern any = Pattern.compile(Suites.TEST_CLASS);
        Pattern deployment = Pattern.compile(Suites.DEPLOYMENT_ROOM);
        Pattern benchmark = Pattern.compile(Suites.BENCHMARKS);
        List<String> inDeployment = new ArrayList<>();
        List<String> inOthers = new ArrayList<>();
        List<String> inNeither = new ArrayList<>();
        List<String> benchmarks = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(TESTS)) {
            String source = SourceFiles.read(file);
            String name = TESTS.relativize(file).toString().replace(".java", "").replace('/', '.');
            String simpleName = file.getFileName().toString().replace(".java", "");
            if (!TEST_METHOD.matcher(source).find() || source.contains("abstract class " + simpleName)) {
                continue;
            }
            if (name.startsWith("io.qawk.client.") || name.endsWith("IT")) {
                continue;
            }
            boolean d = deployment.matcher(name).matches();
            boolean o = any.matcher(name).matches() && !d;
            if (benchmark.matcher(name).matches()) {
                benchmarks.add(name);
            } else if (d) {
                inDeployment.add(name);
            } else if (o) {
                inOthers.add(name);
            } else {
                inNeither.add(name);
            }
        }
        assertThat(inNeither).as("test classes no suite runs").isEmpty();
        assertThat(inDeployment).as("the deployment room's suite").contains(
                "io.qawk.orchestrator.deployment.SystemDeploymentEndToEndTest", "io.qawk.orchestrator.guard.GuardEndToEndTest");
        assertThat(inOthers).as("the other rooms' suite").contains("io.qawk.orchestrator.CodeMapTest",
                "io.qawk.orchestrator.ui.OrchestratorScreenTest", "io.qawk.orchestrator.SuitesTest");
        assertThat(benchmarks).contains("io.qawk.orchestrator.bench.ScaleBenchmarkTest")
                .doesNotContain("io.qawk.orchestrator.bench.ScaleBenchmarkSmokeTest");
    }
}
