package io.qawk.orchestrator.deployment.flow;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Prints how long each flow test took once the application was up (the goal: well under a second each), as
 * {@code flow test <class>.<method>: <n> ms}; surefire's report has the same per test case.
 */
public class FlowTiming implements BeforeTestExecutionCallback, AfterTestExecutionCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(FlowTiming.class);

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        context.getStore(NS).put("started", System.nanoTime());
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        long started = context.getStore(NS).remove("started", Long.class);
        System.out.printf("flow test %s.%s: %d ms%n", context.getRequiredTestClass().getSimpleName(),
                context.getRequiredTestMethod().getName(), (System.nanoTime() - started) / 1_000_000);
    }
}
