package io.qawk.orchestrator.deployment.flow;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/**
 * The service's {@link Clock} in flow tests: it stands still until a test moves it ({@link #advance}), but for a
 * microsecond per reading, so that what happens one after the other in a pass has times one after the other, as on a
 * real clock (a run that ends and one that starts on its system in the same pass are told apart by their times). Enabled by
 * {@link FlowProfile} only (an alternative is no bean elsewhere), where it takes the place of {@code ClockProducer}'s
 * default bean. hawkBit's double reads the same time ({@link FlowHawkbitResource}), so a device's answer carries the
 * time of the flow.
 */
@Alternative
@Singleton
public class FlowClock extends Clock {

    /** One time for the JVM: the service's beans and hawkBit's double read it; it only moves forward. */
    private static final AtomicReference<Instant> NOW = new AtomicReference<>(
            Instant.now().truncatedTo(ChronoUnit.SECONDS));

    /** Moves the time of the service and of hawkBit's double forward by {@code by}. */
    public static Instant advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time only moves forward: " + by);
        }
        return NOW.updateAndGet(t -> t.plus(by));
    }

    /** The time of the flow (hawkBit's double reads it in milliseconds). */
    public static Instant now() {
        return NOW.updateAndGet(t -> t.plusNanos(1_000));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.fixed(NOW.get(), zone);
    }

    @Override
    public Instant instant() {
        return NOW.updateAndGet(t -> t.plusNanos(1_000));
    }
}
