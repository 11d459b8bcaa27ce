package io.qawk.orchestrator.testsupport;

/**
 * How the service's test classes are split between the two suites surefire runs, one per JVM (service/pom.xml,
 * {@code qawk.test.includes}). The split follows the measured class times (about half each); a class matching
 * neither would silently not run, so the suites' patterns are complements and {@code SuitesTest} checks it.
 */
public final class Suites {

    public static final String ROOT = "io.qawk.orchestrator";

    /** The names surefire runs by default: {@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}. */
    public static final String TEST_CLASS = "^io\\.qawk\\.orchestrator\\.(.*\\.)?(Test[^.$]*|[^.$]*(Test|Tests|TestCase))$";

    public static final String DEPLOYMENT_ROOM =
            "^io\\.qawk\\.orchestrator\\.(deployment|guard|evidence)\\.(.*\\.)?(Test[^.$]*|[^.$]*(Test|Tests|TestCase))$";

    /** Tagged "benchmark" and run by -Pbenchmark only; left out by name so their profiles are not even built. */
    public static final String BENCHMARKS = ".*BenchmarkTest$";

    private Suites() {
    }
}
