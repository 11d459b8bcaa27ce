package io.qawk.orchestrator.common;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;

/** The one place the wall clock is read; domain code gets a {@link Clock} injected so tests can move time. */
@ApplicationScoped
public class ClockProducer {

    @Produces
    @DefaultBean
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }
}
