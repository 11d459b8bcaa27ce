package io.qawk.orchestrator.testsupport;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The deployment room's tests named N to Z, the guard's and the evidence record's, and the screens' (a real browser),
 * the published API's, sign-in's and the audit record's: what the other of the README's two test JVMs runs (see
 * {@link DeploymentAToMAndOtherRoomsSuite}).
 */
@Suite
@SelectPackages(Suites.ROOT)
@IncludeClassNamePatterns({Suites.DEPLOYMENT_N_TO_Z, Suites.SCREENS})
@ExcludeClassNamePatterns(Suites.BENCHMARKS)
public class DeploymentNToZAndScreensSuite {
}
