package io.qawk.orchestrator.deployment.flow;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

import io.qawk.orchestrator.testsupport.Suites;

/**
 * The flow tests (tag {@code flow}): the engine ticked pass by pass against hawkBit's in-memory double, one Quarkus
 * start for all, about a minute. Surefire runs suites by their full names (service/pom.xml: {@code alphabetical}),
 * and {@code io.qawk.orchestrator.deployment.flow} comes before {@code io.qawk.orchestrator.testsupport}: this suite
 * starts first, so a broken engine rule is said within a minute, before the end-to-end suites have done much.
 * {@code -Dtest=FlowSuite} runs it alone.
 */
@Suite
@SelectPackages("io.qawk.orchestrator.deployment.flow")
@IncludeClassNamePatterns(Suites.FLOW)
@IncludeTags(Suites.FLOW_TAG)
public class FlowSuite {
}
