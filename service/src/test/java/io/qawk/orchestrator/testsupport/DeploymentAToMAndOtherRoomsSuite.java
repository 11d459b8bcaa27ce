package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The deployment room's tests named A to M, the hostile cases, and every room's the other suite does not run: what one
 * of the README's two test JVMs runs ({@link Suites} says how the classes are split).
 *
 * <p>Why suites: surefire hands a JVM one class at a time when it runs several JVMs, and JUnit closes Quarkus after
 * each hand-over, so every {@code @QuarkusTest} class built and started the application anew (69 starts summing 880 s
 * in one run). A suite is one hand-over: its classes share the started application, and Quarkus orders them by
 * profile, so a JVM starts Quarkus once per profile of its suite. One suite per JVM, not two after each other: each
 * suite's discovery built its applications again (a start of about 50 s, once more per JVM, with four suites).
 */
@Suite
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.TEST_CLASS)
@ExcludeClassNamePatterns({Suites.DEPLOYMENT_N_TO_Z, Suites.SCREENS, Suites.BENCHMARKS})
public class DeploymentAToMAndOtherRoomsSuite {
}
