package io.qawk.orchestrator.testsupport;

/**
 * How the service's test classes are split between the four suites surefire runs, one JVM each by default
 * ({@code qawk.test.forks}; service/pom.xml, {@code qawk.test.includes}; alphabetical, so with two JVMs each starts
 * with one of the two deployment suites). The split follows the measured class times (docs/benchmarks.md: about a quarter each). A class matching
 * none would silently not run, so {@link OtherRoomsSuite} takes every test class the others do not, and
 * {@code SuitesTest} checks that each is in exactly one.
 */
public final class Suites {

    public static final String ROOT = "io.qawk.orchestrator";

    /** The simple names surefire runs by default: {@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}. */
    private static final String TEST_NAME = "(Test[^.$]*|[^.$]*(Test|Tests|TestCase))$";

    /** Every test class under {@link #ROOT}, by the names surefire runs. */
    public static final String TEST_CLASS = "^io\\.qawk\\.orchestrator\\.([a-z]+\\.)*" + TEST_NAME;

    /** The deployment room's classes named A to M, and the hostile cases (hawkBit in trouble, bad input). */
    public static final String DEPLOYMENT_A_TO_M = "^io\\.qawk\\.orchestrator\\.(deployment\\.([a-z]+\\.)*(?=[A-M])"
            + "|hostile\\.([a-z]+\\.)*)" + TEST_NAME;

    /** The deployment room's classes named N to Z, the guard and the evidence record. */
    public static final String DEPLOYMENT_N_TO_Z = "^io\\.qawk\\.orchestrator\\.(deployment\\.([a-z]+\\.)*(?=[N-Z])"
            + "|(guard|evidence)\\.([a-z]+\\.)*)" + TEST_NAME;

    /**
     * The screens (a real browser), the published API, sign-in, and the audit record (its end-to-end test signs in
     * with the sign-in tests' profile, so it shares their start of the application).
     */
    public static final String SCREENS = "^io\\.qawk\\.orchestrator\\.(ui|apidoc|security|audit)\\.([a-z]+\\.)*"
            + TEST_NAME;

    /** Tagged "benchmark" and run by -Pbenchmark only; left out by name so their profiles are not even built. */
    public static final String BENCHMARKS = ".*BenchmarkTest$";

    private Suites() {
    }
}
