package io.qawk.orchestrator.reliability;

import java.time.Duration;

import io.qawk.orchestrator.testkit.HawkbitProxy;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;
import io.qawk.orchestrator.testkit.reliability.Probe;
import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;
import io.qawk.orchestrator.testkit.reliability.ServiceProcess;

/**
 * The service {@link HardStopIT} and {@link RestartWhereItStoodIT} kill and start again: one process on its own
 * Postgres, reaching the JVM's hawkBit through the proxy, which holds back hawkBit's answers to assignments. Two classes,
 * so that failsafe's JVMs run them side by side.
 */
final class KilledService implements AutoCloseable {

    /**
     * How late hawkBit's answer to an assignment reaches the service. A fast quiet machine closes the window between
     * hawkBit taking an assignment and the engine recording it in milliseconds; a hawkBit that answers late, as a busy
     * one does, widens it so that a kill or a freeze can land inside it. Well under the service's read timeout (30 s).
     */
    static final Duration ASSIGNMENT_ANSWER_DELAY = Duration.ofSeconds(3);

    private ReliabilityPostgres pg;
    Probe probe;
    ServiceProcess service;

    private KilledService() {
    }

    static KilledService start(String name) {
        HawkbitServer hawkbit = SharedHawkbit.get();
        HawkbitProxy.heal();
        HawkbitProxy.slowAssignmentAnswers(ASSIGNMENT_ANSWER_DELAY);
        KilledService s = new KilledService();
        try {
            s.pg = ReliabilityPostgres.start(name);
            s.probe = new Probe(s.pg);
            s.service = ServiceProcess.start(name, s.pg.jdbcUrl(),
                    ServiceProcess.Hawkbit.of(hawkbit).at(HawkbitProxy.url()));
            return s;
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
    }

    @Override
    public void close() {
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
