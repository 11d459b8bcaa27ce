package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** Every test class the other three suites do not run (see {@link DeploymentAToMSuite}). */
@Suite
@ExcludeTags(Suites.FLOW_TAG)
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.TEST_CLASS)
@ExcludeClassNamePatterns({Suites.FLOW, Suites.DEPLOYMENT_A_TO_M, Suites.DEPLOYMENT_N_TO_Z, Suites.SCREENS, Suites.BENCHMARKS})
public class OtherRoomsSuite {
}
