package io.qawk.orchestrator.testsupport;

/**
 * How the service's test classes are split between the suites surefire runs, one JVM each by default
 * ({@code qawk.test.forks}; service/pom.xml, {@code qawk.test.includes}; alphabetical by full name, so the flow tests'
 * suite ({@code deployment.flow.FlowSuite}, a minute) starts first, and with two JVMs the other starts with a
 * deployment suite). The flow tests are a kind of their own, by their tag ({@link #FLOW_TAG}); the rest are split by
 * name. The split follows the measured class times (docs/benchmarks.md: about a quarter each). A class matching
 * none would silently not run, so {@link OtherRoomsSuite} takes every test class the others do not, and
 * {@code SuitesTest} checks that each is in exactly one.
 */
public final class Suites {

    public static final String ROOT = "io.qawk.orchestrator";

    /** The simple names surefire runs by default: {@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}. */
    private static final String TEST_NAME = "(Test[^.$]*|[^.$]*(Test|Tests|TestCase))$";

    /** Every test class under {@link #ROOT}, by the names surefire runs. */
    public static final String TEST_CLASS = "^io\\.qawk\\.orchestrator\\.([a-z]+\\.)*" + TEST_NAME;

    /**
     * The deployment room's classes named A to M, the hostile cases (hawkBit in trouble, bad input) and the evidence
     * record (moved from N–Z, the longest suite at 722 s against 587 s, 2026-12-08).
     */
    public static final String DEPLOYMENT_A_TO_M = "^io\\.qawk\\.orchestrator\\.(deployment\\.([a-z]+\\.)*(?=[A-M])"
            + "|(hostile|evidence)\\.([a-z]+\\.)*)" + TEST_NAME;

    /** The deployment room's classes named N to Z, and the guard. */
    public static final String DEPLOYMENT_N_TO_Z = "^io\\.qawk\\.orchestrator\\.(deployment\\.([a-z]+\\.)*(?=[N-Z])"
            + "|guard\\.([a-z]+\\.)*)" + TEST_NAME;

    /**
     * The screens (a real browser), the published API, sign-in, and the audit record (its end-to-end test signs in
     * with the sign-in tests' profile, so it shares their start of the application).
     */
    public static final String SCREENS = "^io\\.qawk\\.orchestrator\\.(ui|apidoc|security|audit)\\.([a-z]+\\.)*"
            + TEST_NAME;

    /**
     * The kind of the flow tests ({@code deployment/flow}): the engine ticked pass by pass with a fixed clock against
     * hawkBit's in-memory double. {@code FlowSuite} runs them, and only them; the other suites leave them out.
     */
    public static final String FLOW_TAG = "flow";

    /**
     * The flow tests by name too: a suite's tag filter applies only once a class is loaded, and loading a
     * {@code @QuarkusTest} class builds its profile's application, so every suite leaves them out (or takes only them)
     * by name first.
     */
    public static final String FLOW = "^io\\.qawk\\.orchestrator\\.deployment\\.flow\\." + TEST_NAME;

    /** Tagged "benchmark" and run by -Pbenchmark only; left out by name so their profiles are not even built. */
    public static final String BENCHMARKS = ".*BenchmarkTest$";

    private Suites() {
    }
}
