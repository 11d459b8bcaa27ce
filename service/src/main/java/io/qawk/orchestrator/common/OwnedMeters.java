package io.qawk.orchestrator.common;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The meters one bean registers and reads, replaced when registered and removed when the bean goes.
 *
 * <p>Why: the {@link MeterRegistry} Quarkus injects is Micrometer's global composite registry, a static. When one
 * JVM runs the application again in the same class loader (the tests do: Quarkus restarts it when a test of another
 * profile ran in between, which happens whenever surefire runs the test classes in more than one JVM), that composite
 * still holds the earlier application's meters; outside dev mode Quarkus removes only its Prometheus registry at
 * shutdown. A {@code Gauge.builder(...).register(registry)} of the same name and tags then returns the earlier
 * application's gauge: it reads the earlier bean's object while that is alive (a value that no longer moves), and
 * once that is collected the new Prometheus registry gets no gauge at all. Counters and timers hold none of the
 * application's objects and count into the current registry either way.
 *
 * <p>So {@link #register} removes any meter of that name and tags first (it registers, removes what it got, and
 * registers again: the meter it returns is always built on this bean's object), and {@link #removeAll}, called
 * from the bean's {@code @PreDestroy}, takes its meters out of the registry when the application stops. In
 * production, one application per JVM, the first registration finds nothing and the removal at stop changes nothing
 * anyone scrapes.
 */
public final class OwnedMeters {

    private final MeterRegistry registry;
    private final List<Meter> meters = new CopyOnWriteArrayList<>();

    public OwnedMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Registers a meter built on this bean's objects, e.g. {@code register(Gauge.builder(name, value, f)::register)},
     * replacing a meter of the same name and tags left in the registry by an earlier application in this JVM.
     */
    public <M extends Meter> M register(Function<MeterRegistry, M> registration) {
        registry.remove(registration.apply(registry));
        M meter = registration.apply(registry);
        meters.add(meter);
        return meter;
    }

    /** Removes every meter registered here from the registry (and from the registries below it). */
    public void removeAll() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
