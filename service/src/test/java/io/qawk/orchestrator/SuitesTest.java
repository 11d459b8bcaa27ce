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
 * Surefire runs the suites only (service/pom.xml): a test class no suite selects would never run, and one two select
 * would run twice. Every test class in the sources must be in exactly one, the benchmarks in none. The flow tests are
 * chosen by their tag ({@code @Tag("flow")}, which the other suites exclude), all in {@code deployment.flow} and all
 * on the one flow profile (one Quarkus start).
 */
class SuitesTest {

    static final Path TESTS = Path.of("src/test/java");

    static final Pattern FLOW_TAG = Pattern.compile("(?m)^@Tag\\(\"" + Suites.FLOW_TAG + "\"\\)");

    static final Pattern TEST_METHOD = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");

    @Test
    void everyTestClassIsInExactlyOneSuiteAndNoBenchmarkInAny() {
        Pattern any = Pattern.compile(Suites.TEST_CLASS);
        Map<String, Pattern> named = new LinkedHashMap<>();
        named.put("DeploymentAToMSuite", Pattern.compile(Suites.DEPLOYMENT_A_TO_M));
        named.put("DeploymentNToZSuite", Pattern.compile(Suites.DEPLOYMENT_N_TO_Z));
        named.put("ScreensSuite", Pattern.compile(Suites.SCREENS));
        Pattern benchmark = Pattern.compile(Suites.BENCHMARKS);
        Map<String, List<String>> in = new LinkedHashMap<>();
        named.keySet().forEach(s -> in.put(s, new ArrayList<>()));
        in.put("OtherRoomsSuite", new ArrayList<>());
        List<String> inNeither = new ArrayList<>();
        List<String> inTwo = new ArrayList<>();
        List<String> benchmarks = new ArrayList<>();
        List<String> flow = new ArrayList<>();
        List<String> flowAmiss = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(TESTS)) {
            String source = SourceFiles.read(file);
            String name = TESTS.relativize(file).toString().replace(".java", "").replace('/', '.');
            String simpleName = file.getFileName().toString().replace(".java", "");
            if (!TEST_METHOD.matcher(source).find() || source.contains("abstract class " + simpleName)
                    || name.endsWith("IT")) {
                continue;
            }
            boolean tagged = FLOW_TAG.matcher(source).find();
            if (tagged || name.startsWith(Suites.ROOT + ".deployment.flow.")) {
                flow.add(name);
                if (!tagged || !name.startsWith(Suites.ROOT + ".deployment.flow.")
                        || !source.contains("@TestProfile(FlowProfile.class)")) {
                    flowAmiss.add(name);
                }
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
                in.get("OtherRoomsSuite").add(name);
            } else {
                inNeither.add(name);
            }
        }
        assertThat(inNeither).as("test classes no suite runs").isEmpty();
        assertThat(flowAmiss).as("flow tests: in deployment.flow, tagged flow, on FlowProfile").isEmpty();
        assertThat(flow).contains("io.qawk.orchestrator.deployment.flow.OrdersFlowTest",
                "io.qawk.orchestrator.deployment.flow.WatchedTimeFlowTest");
        assertThat(inTwo).as("test classes two suites run").isEmpty();
        assertThat(in.get("DeploymentAToMSuite")).contains("io.qawk.orchestrator.deployment.EngineFaultsEndToEndTest",
                "io.qawk.orchestrator.deployment.plan.MendChoiceTest", "io.qawk.orchestrator.hostile.HawkbitTroubleTest");
        assertThat(in.get("DeploymentNToZSuite")).contains(
                "io.qawk.orchestrator.deployment.SystemDeploymentEndToEndTest",
                "io.qawk.orchestrator.deployment.plan.RunPlannerTest", "io.qawk.orchestrator.guard.GuardEndToEndTest")
                .doesNotContain("io.qawk.orchestrator.deployment.EngineFaultsEndToEndTest");
        assertThat(in.get("ScreensSuite")).contains("io.qawk.orchestrator.ui.OrchestratorScreenTest");
        assertThat(in.get("OtherRoomsSuite")).contains("io.qawk.orchestrator.CodeMapTest",
                "io.qawk.orchestrator.SuitesTest", "io.qawk.orchestrator.channel.ChannelEndToEndTest")
                .doesNotContain("io.qawk.orchestrator.ui.OrchestratorScreenTest");
        assertThat(benchmarks).contains("io.qawk.orchestrator.bench.ScaleBenchmarkTest")
                .doesNotContain("io.qawk.orchestrator.bench.ScaleBenchmarkSmokeTest");
    }
}
