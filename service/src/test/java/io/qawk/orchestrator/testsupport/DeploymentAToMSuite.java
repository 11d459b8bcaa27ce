package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The deployment room's tests named A to M, the hostile cases and the evidence record: one of the four suites the
 * README's test JVMs run, one at a time each ({@link Suites} says how they are split).
 *
 * <p>Why suites: surefire hands a JVM one class at a time when it runs several JVMs, and JUnit closes Quarkus after
 * each hand-over, so every {@code @QuarkusTest} class built and started the application anew (69 starts summing 880 s
 * in one run). A suite is one hand-over: its classes share the started application, and Quarkus orders them by
 * profile, so a JVM starts Quarkus once per profile of the suite.
 */
@Suite
@ExcludeTags(Suites.FLOW_TAG)
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.DEPLOYMENT_A_TO_M)
@ExcludeClassNamePatterns({Suites.FLOW, Suites.BENCHMARKS})
public class DeploymentAToMSuite {
}
