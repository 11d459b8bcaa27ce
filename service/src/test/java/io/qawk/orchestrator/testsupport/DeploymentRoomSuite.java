package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The tests of the deployment room, the guard and the evidence record: what one of the README's two test JVMs runs
 * ({@link OtherRoomsSuite} is the other; together they are every test class, see {@link Suites}).
 *
 * <p>Why suites: surefire hands a JVM one class at a time when it runs several JVMs, and JUnit closes Quarkus after
 * each hand-over, so every {@code @QuarkusTest} class built and started the application anew (69 starts summing 880 s
 * in one run). A suite is one hand-over: its classes share the started application, and Quarkus orders them by
 * profile, so a JVM starts Quarkus once per profile.
 */
@Suite
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.DEPLOYMENT_ROOM)
@ExcludeClassNamePatterns(Suites.BENCHMARKS)
public class DeploymentRoomSuite {
}
