package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The screens' tests (a real browser), the published API's, sign-in's and the audit record's (see
 * {@link DeploymentAToMSuite}).
 */
@Suite
@ExcludeTags(Suites.FLOW_TAG)
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.SCREENS)
@ExcludeClassNamePatterns({Suites.FLOW, Suites.BENCHMARKS})
public class ScreensSuite {
}
