package io.qawk.orchestrator.reliability;

import java.time.Duration;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.Probe;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;

/**
 * The service {@link HardStopIT} and {@link RestartWhereItStoodIT} kill and start again: one process on its own
 * Postgres, reaching the JVM's hawkBit through the proxy, which holds back hawkBit's answers to assignments. Two classes,
 * so that failsafe's JVMs run them side by side. Registered as a static extension: started before the class's tests,
 * stopped after them.
 */
final class KilledService implements BeforeAllCallback, AfterAllCallback {

    /**
     * How late hawkBit's answer to an assignment reaches the service. A fast quiet machine closes the window between
     * hawkBit taking an assignment and the engine recording it in milliseconds; a hawkBit that answers late, as a busy
     * one does, widens it so that a kill or a freeze can land inside it. Well under the service's read timeout (30 s).
     */
    static final Duration ASSIGNMENT_ANSWER_DELAY = Duration.ofSeconds(3);

    private final String name;
    private ReliabilityPostgres pg;
    Probe probe;
    ServiceProcess service;

    KilledService(String name) {
        this.name = name;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        HawkbitServer hawkbit = SharedHawkbit.get();
        HawkbitProxy.heal();
        HawkbitProxy.slowAssignmentAnswers(ASSIGNMENT_ANSWER_DELAY);
        pg = ReliabilityPostgres.start(name);
        probe = new Probe(pg);
        service = ServiceProcess.start(name, pg.jdbcUrl(), ServiceProcess.Hawkbit.of(hawkbit).at(HawkbitProxy.url()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (service != null) {
            service.close();
        }
        if (System.getProperty(HawkbitProxy.PORT_PROPERTY) != null) {
            HawkbitProxy.heal(); // the proxy is the JVM's: no held answers for whoever uses it next
        }
        if (probe != null) {
            probe.close();
        }
        if (pg != null) {
            pg.close();
        }
    }
}
