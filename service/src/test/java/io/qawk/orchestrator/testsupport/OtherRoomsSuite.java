package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** Every test class {@link DeploymentRoomSuite} does not run: the other of the README's two test JVMs. */
@Suite
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.TEST_CLASS)
@ExcludeClassNamePatterns({Suites.DEPLOYMENT_ROOM, Suites.BENCHMARKS})
public class OtherRoomsSuite {
}
