/**
 * The engine as a flow (issue 59): the deployment engine's passes ticked one by one by the test, with a fixed clock the
 * test moves ({@link io.qawk.orchestrator.deployment.flow.FlowClock}) and hawkBit's in-memory double
 * ({@code ScaleHawkbit}) answering as hawkBit does. One Quarkus start ({@link io.qawk.orchestrator.deployment.flow.FlowProfile})
 * for every class here, JUnit tag {@code flow}, run by their own suite, {@link io.qawk.orchestrator.deployment.flow.FlowSuite}, which surefire starts first.
 */
package io.qawk.orchestrator.deployment.flow;
