package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/** The deployment room's tests named N to Z, and the guard's (see {@link DeploymentAToMSuite}). */
@Suite
@ExcludeTags(Suites.FLOW_TAG)
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns(Suites.DEPLOYMENT_N_TO_Z)
@ExcludeClassNamePatterns({Suites.FLOW, Suites.BENCHMARKS})
public class DeploymentNToZSuite {
}
